// The table of Unstable Unicorns, drawn from the observation Python sends (uu/table/observation.py).
//
// Python is the only judge of the rules: this module draws what the viewer may see, lights up the elements
// that continue a legal gesture (data-legal="true") and, once the clicks made fit exactly one action, sends
// that action's index back ({type: "choose", id, version}). It never decides what is legal by itself.
//
// Every text that comes from the game (names, card texts, log lines) is set with textContent, never as
// HTML: a player called "<img onerror=...>" shows as text. Only the constant icons below are markup.

const TYPE_COLOURS = {
  baby: ["#8e44ad", "#ffffff"], basic: ["#3949ab", "#ffffff"], magical: ["#1e5fa8", "#ffffff"],
  magic: ["#2e7d32", "#ffffff"], upgrade: ["#b85000", "#ffffff"], downgrade: ["#f9cf00", "#1b1b1b"],
  instant: ["#c62828", "#ffffff"],
};
// One symbol per type, our own shapes: the three Unicorn kinds differ in shape (short horn, horn, horn
// with a sparkle), so that they are told apart without colour, as the type word on the card also says.
const ICONS = {
  baby: "<circle cx='8' cy='11' r='4'/><polygon points='8,2 9.6,7.5 6.4,7.5'/>",
  basic: "<polygon points='8,1 11,15 5,15'/>",
  magical: "<polygon points='6,1 9,15 3,15'/><polygon points='13,2 14,5 16,6 14,7 13,10 12,7 10,6 12,5'/>",
  magic: "<polygon points='8,1 10,6 15,6 11,9.5 12.5,15 8,11.5 3.5,15 5,9.5 1,6 6,6'/>",
  upgrade: "<polygon points='8,1 15,9 10.5,9 10.5,15 5.5,15 5.5,9 1,9'/>",
  downgrade: "<polygon points='8,15 15,7 10.5,7 10.5,1 5.5,1 5.5,7 1,7'/>",
  instant: "<polygon points='10,1 3,9 7.5,9 6,15 13,6 8.5,6'/>",
  back: "<polygon points='8,1 15,8 8,15 1,8'/>",
};
const PHASES = [["beginning", "Beginning of turn"], ["draw", "Draw"], ["action", "Action"], ["end", "End of turn"]];
const ZONE_WORDS = { hand: "hand", stable: "Stable", pile: "Neigh pile", discard: "discard pile",
  nursery: "Nursery", deck: "deck" };

function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

function icon(key) {
  const span = h("span", { class: "uu-t-icon", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 16 16" width="16" height="16" fill="currentColor">${ICONS[key] || ICONS.back}</svg>`;
  return span;
}

function possessive(obs, seat) {
  const p = obs.players[seat];
  return p.is_viewer ? "your" : `${p.name}'s`;
}

function where(obs, card) {
  if (card.zone === "hand" || card.zone === "stable") return `in ${possessive(obs, card.owner)} ${ZONE_WORDS[card.zone]}`;
  return `in the ${ZONE_WORDS[card.zone] || card.zone}`;
}

// A card: a button (keyboard and touch alike), with its type as colour, icon and word, its name and text;
// a larger preview shows on hover and on focus (so no hover is ever needed).
function cardEl(obs, card, extra = {}) {
  const owner = card.owner >= 0 ? obs.players[card.owner].name : null;
  if (card.name === null) {
    const label = `Hidden card ${where(obs, card)}`;
    return h("button", { type: "button", class: "uu-t-card uu-t-back", "data-card": "hidden", "data-zone": card.zone,
      "data-owner": owner, "data-key": card.key, "data-id": card.id, "aria-label": label, title: label },
    icon("back"), h("span", { class: "uu-t-type", text: "Card" }));
  }
  const [bg, fg] = TYPE_COLOURS[card.type] || ["#607d8b", "#ffffff"];
  const label = `${card.name}, ${card.type_label}, ${where(obs, card)}. ${card.text}${extra.note ? " " + extra.note : ""}`;
  const el = h("button", { type: "button", class: `uu-t-card uu-t-type-${card.type}`, "data-card": card.name,
    "data-zone": card.zone, "data-owner": owner, "data-key": card.key, "data-id": card.id, "aria-label": label,
    style: `--uu-bg:${bg};--uu-fg:${fg}` },
  h("span", { class: "uu-t-head" }, icon(card.icon), h("span", { class: "uu-t-type", text: card.type_label })),
  h("span", { class: "uu-t-name", text: card.name }),
  h("span", { class: "uu-t-text", text: card.text }));
  if (extra.note) el.append(h("span", { class: "uu-t-note", text: extra.note }));
  const preview = h("span", { class: "uu-t-preview", "aria-hidden": "true" },
    h("span", { class: "uu-t-head" }, icon(card.icon), h("span", { class: "uu-t-type", text: card.type_label })),
    h("span", { class: "uu-t-name", text: card.name }), h("span", { class: "uu-t-ptext", text: card.text }));
  el.append(preview);
  return el;
}

function row(cards, empty) {
  const r = h("div", { class: "uu-t-row" });
  if (!cards.length) r.append(h("span", { class: "uu-t-empty", text: empty }));
  for (const c of cards) r.append(c);
  return r;
}

function plural(n, word, words) {
  return `${n} ${n === 1 ? word : (words || word + "s")}`;
}

function render({ model, el }) {
  const root = h("div", { class: "uu-t" });
  el.append(root);
  let clicks = [];          // element keys clicked so far in the gesture under way
  let waiting = false;      // a choice was sent: nothing is legal until the next table arrives
  let listOpen = false;
  let places = null;        // card id -> "zone/owner" on the table drawn last (what moved)
  let scheduled = false;

  const obs = () => model.get("observation") || {};
  const actions = () => model.get("actions") || [];

  function fits() {
    return actions().filter((a) => clicks.every((k, i) => a.gesture[i] === k));
  }

  function nextKeys() {
    if (waiting) return new Set();
    const n = clicks.length;
    return new Set(fits().filter((a) => a.gesture.length > n).map((a) => a.gesture[n]));
  }

  function send(id) {
    waiting = true;
    clicks = [];
    model.send({ type: "choose", id, version: model.get("version") });
    mark();
  }

  function activate(key) {
    if (waiting) return;
    const legal = nextKeys();
    if (!legal.has(key)) {
      // a click off the gesture under way starts again from that element, if a gesture starts there
      clicks = [];
      if (!nextKeys().has(key)) { mark(); return; }
    }
    clicks.push(key);
    const left = fits();
    const done = left.filter((a) => a.gesture.length === clicks.length);
    if (left.length === 1 && done.length === 1) send(done[0].id);
    else mark();
  }

  // data-legal on every element that continues a gesture; aria-pressed on the ones chosen so far.
  function mark() {
    const legal = nextKeys();
    for (const e of root.querySelectorAll("[data-key]")) {
      const key = e.getAttribute("data-key");
      if (legal.has(key)) e.setAttribute("data-legal", "true");
      else e.removeAttribute("data-legal");
      if (clicks.includes(key)) e.setAttribute("aria-pressed", "true");
      else e.removeAttribute("aria-pressed");
    }
    // a choice inside a folded zone (discard, Nursery) unfolds it
    for (const d of root.querySelectorAll("details.uu-t-fold")) {
      if (d.querySelector("[data-legal='true']")) d.open = true;
    }
    const status = root.querySelector(".uu-t-status");
    if (status) status.textContent = statusText(legal);
    const cancel = root.querySelector(".uu-t-cancel");
    if (cancel) cancel.hidden = clicks.length === 0;
  }

  function statusText(legal) {
    const o = obs();
    if (o.over) return `Game over: ${o.result || "no winner"}.`;
    if (waiting) return "Sent. Waiting for the table to update.";
    if (!o.decision || !o.decision.yours) return o.decision ? o.decision.prompt : "";
    if (!clicks.length) return `${o.decision.prompt} Lit cards and places can be chosen.`;
    const left = fits().map((a) => a.description);
    return `Next, choose one of the lit places (${legal.size}): ${left.join("; ")}. Escape cancels.`;
  }

  function draw() {
    scheduled = false;
    waiting = false;
    clicks = [];
    // keyboard users keep their place: focus returns to the same element, else to the first lit one
    const active = root.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = active ? active.getAttribute("data-key") : null;
    const focusClass = active && active.classList.length ? active.classList[0] : null;
    const o = obs();
    const acts = actions();
    root.replaceChildren();
    root.setAttribute("data-version", String(model.get("version")));  // tests wait for the next table
    if (!o.players) { root.append(h("p", { text: "No game on the table." })); return; }
    const viewerSeat = o.players.findIndex((p) => p.is_viewer);

    // turn, phase track, prompt
    const head = h("div", { class: "uu-t-top" });
    const turn = o.turn.number ? `Turn ${o.turn.number}: ${o.players[o.turn.player].is_viewer ? "your turn" : o.turn.name + "'s turn"}` : "Setup: choosing Babies";
    head.append(h("div", { class: "uu-t-turn", text: turn }));
    const track = h("ol", { class: "uu-t-phases", "aria-label": "Phases of the turn" });
    for (const [key, label] of PHASES) {
      const cur = o.turn.number && key === o.turn.phase;
      track.append(h("li", { class: cur ? "uu-t-phase uu-t-phase-now" : "uu-t-phase", "aria-current": cur ? "step" : null, text: label }));
    }
    head.append(track);
    if (o.over) head.append(h("div", { class: "uu-t-result", role: "status", text: `Game over: ${o.result || "no winner"}` }));
    const status = h("div", { class: "uu-t-status", role: "status", "aria-live": "polite" });
    const cancel = h("button", { type: "button", class: "uu-t-cancel", hidden: true, text: "Cancel (Escape)" });
    cancel.addEventListener("click", () => { clicks = []; mark(); });
    head.append(h("div", { class: "uu-t-prompt" }, status, cancel));
    // choices that are no card on the table: an effect's options, a search of the deck, decline
    const opts = acts.filter((a) => a.option);
    const decline = acts.find((a) => a.kind === "decline");
    if (opts.length || decline) {
      const box = h("div", { class: "uu-t-options", role: "group", "aria-label": "Choices" });
      for (const a of opts) box.append(h("button", { type: "button", class: "uu-t-option", "data-key": `option:${a.id}`, text: a.option }));
      if (decline) box.append(h("button", { type: "button", class: "uu-t-option", "data-key": "decline", text: a11yDecline(decline) }));
      head.append(box);
    }
    root.append(head);

    // the other players, the middle of the table, then the viewer
    const seats = h("div", { class: "uu-t-seats" });
    for (const p of o.players) if (!p.is_viewer) seats.append(seatEl(o, p));
    root.append(seats);
    root.append(middleEl(o));
    if (viewerSeat >= 0) root.append(seatEl(o, o.players[viewerSeat]));

    // the fallback: every legal move as a button
    const toggle = h("button", { type: "button", class: "uu-t-list-toggle", "aria-expanded": String(listOpen),
      text: `List of moves (${acts.length})`, disabled: acts.length ? null : true });
    const list = h("div", { class: "uu-t-moves", hidden: !listOpen, role: "group", "aria-label": "List of moves" });
    for (const a of acts) {
      const b = h("button", { type: "button", class: "uu-t-move", "data-action": a.id, text: a.description });
      b.addEventListener("click", () => { if (!waiting) send(a.id); });
      list.append(b);
    }
    toggle.addEventListener("click", () => {
      listOpen = !listOpen;
      list.hidden = !listOpen;
      toggle.setAttribute("aria-expanded", String(listOpen));
    });
    root.append(h("div", { class: "uu-t-fallback" }, toggle, list));

    // the newest lines of the log, each with why
    const logBox = h("section", { class: "uu-t-log", "aria-label": "What happened, newest first" },
      h("h3", { class: "uu-t-label", text: "What happened (newest first)" }));
    for (const line of o.log || []) {
      const d = h("details", { class: "uu-t-logline" }, h("summary", { text: line.text }));
      const why = line.why && line.why.length ? line.why : ["No rule is cited: it reports a choice or a move."];
      for (const w of why) d.append(h("div", { class: "uu-t-why", text: w }));
      logBox.append(d);
    }
    root.append(logBox);

    highlightMoves(o);
    mark();
    if (active) {
      const same = focusKey && [...root.querySelectorAll("[data-key]")].find((e) => e.getAttribute("data-key") === focusKey);
      const again = same || root.querySelector("[data-legal='true']") || (focusClass && root.querySelector(`.${CSS.escape(focusClass)}`));
      if (again) again.focus({ preventScroll: true });
    }
  }

  function a11yDecline(a) { return a.description.replace(/^decline/, "Decline:"); }

  function seatEl(o, p) {
    const cls = ["uu-t-seat"];
    if (p.is_viewer) cls.push("uu-t-you");
    if (!o.over && o.turn.player === p.seat) cls.push("uu-t-current");
    const whose = p.is_viewer ? "Your" : `${p.name}'s`;
    const sec = h("section", { class: cls.join(" "), "aria-label": `${p.is_viewer ? "You" : p.name}: ${plural(p.unicorns, "Unicorn")}` });
    const place = h("button", { type: "button", class: "uu-t-place uu-t-stable-place", "data-place": "stable",
      "data-owner": p.name, "data-key": `seat:${p.seat}`,
      "aria-label": `${whose} Stable, ${plural(p.unicorns, "Unicorn")}${o.turn.player === p.seat ? ", their turn" : ""}` },
    h("span", { class: "uu-t-seat-name", text: p.is_viewer && p.name.toLowerCase() !== "you" ? `${p.name} (you)` : p.name }),
    h("span", { class: "uu-t-count", text: `${plural(p.unicorns, "Unicorn")} · ${plural(p.hand_size, "card")} in hand` }));
    sec.append(place);
    sec.append(h("div", { class: "uu-t-label", text: `${whose} Stable` }));
    sec.append(row(p.stable.map((c) => cardEl(o, c)), "empty"));
    const handLabel = p.is_viewer ? "Your hand" : `${p.name}'s hand${p.hand_open ? " (face up)" : ""}`;
    sec.append(h("div", { class: "uu-t-label", text: handLabel }));
    sec.append(row(p.hand.map((c) => cardEl(o, c)), "no cards"));
    return sec;
  }

  function middleEl(o) {
    const mid = h("section", { class: "uu-t-middle", "aria-label": "The middle of the table" });
    const deck = h("button", { type: "button", class: "uu-t-card uu-t-back uu-t-deck", "data-card": "hidden",
      "data-zone": "deck", "data-key": "deck", "aria-label": `The deck, ${plural(o.deck_size, "card")}` },
    icon("back"), h("span", { class: "uu-t-type", text: "Deck" }), h("span", { class: "uu-t-name", text: plural(o.deck_size, "card") }));
    mid.append(h("div", { class: "uu-t-zone" }, h("div", { class: "uu-t-label", text: "Deck" }), deck));

    const discard = o.discard || [];
    const top = discard.length ? cardEl(o, discard[discard.length - 1]) : h("span", { class: "uu-t-empty", text: "empty" });
    const fold = h("details", { class: "uu-t-fold" },
      h("summary", { text: `All ${plural(discard.length, "card")}, top first` }),
      row(discard.slice(0, -1).reverse().map((c) => cardEl(o, c)), "no other cards"));
    mid.append(h("div", { class: "uu-t-zone" }, h("div", { class: "uu-t-label", text: "Discard pile (top)" }), top, discard.length > 1 ? fold : null));

    const nursery = o.nursery || [];
    const nfold = h("details", { class: "uu-t-fold" },
      h("summary", { text: plural(nursery.length, "Baby", "Babies") }), row(nursery.map((c) => cardEl(o, c)), "no Babies"));
    mid.append(h("div", { class: "uu-t-zone" }, h("div", { class: "uu-t-label", text: "Nursery" }), nfold));

    const pile = o.pile || [];
    const respond = o.decision && o.decision.yours && o.decision.kind === "respond";
    const pileLabel = respond ? "Neigh pile: pass, let the top card resolve" : `Neigh pile, ${plural(pile.length, "card")}: play a card onto it`;
    const place = h("button", { type: "button", class: "uu-t-place uu-t-pile-place", "data-place": "pile", "data-key": "pile",
      "aria-label": pileLabel, text: respond ? "Pass (let it resolve)" : "Neigh pile" });
    const stack = h("ol", { class: "uu-t-stack", "aria-label": "Neigh pile, bottom to top" });
    pile.forEach((e, i) => {
      const note = `Played by ${e.player}${i === pile.length - 1 ? " (top: the next answer is to this card)" : ""}.`;
      stack.append(h("li", {}, cardEl(o, e.card, { note })));
    });
    mid.append(h("div", { class: "uu-t-zone uu-t-pile" }, h("div", { class: "uu-t-label", text: "Neigh pile" }), place, pile.length ? stack : null));
    return mid;
  }

  // Cards that changed zone since the last table get a short highlight (none under reduced motion: CSS).
  function highlightMoves(o) {
    const now = new Map();
    for (const e of root.querySelectorAll("[data-id]")) {
      const id = e.getAttribute("data-id");
      const at = `${e.getAttribute("data-zone")}/${e.getAttribute("data-owner") || ""}`;
      now.set(id, at);
      if (places && places.get(id) !== at) e.classList.add("uu-t-moved");
    }
    places = now;
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(draw);  // observation, actions and version arrive together: draw once
  }

  root.addEventListener("click", (ev) => {
    const target = ev.target.closest("[data-key]");
    if (!target || !root.contains(target)) return;
    activate(target.getAttribute("data-key"));
  });
  root.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && clicks.length) { clicks = []; mark(); ev.stopPropagation(); }
  });
  model.on("change:observation", schedule);
  model.on("change:actions", schedule);
  model.on("change:version", schedule);
  draw();
  return () => {
    model.off("change:observation", schedule);
    model.off("change:actions", schedule);
    model.off("change:version", schedule);
  };
}

export default { render };
