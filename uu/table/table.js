// The table of Unstable Unicorns, drawn from the observation Python sends (uu/table/seat_view.py).
//
// Python is the only judge of the rules: this module draws what the viewer may see, lights up the elements
// that continue a legal gesture (data-legal="true") and, once the clicks made fit exactly one action, sends
// that action's index back ({type: "choose", id, version}). It never decides what is legal by itself.
//
// Layout: a bar on top (turn, phases, the prompt, the pace of the others' moves), the other players compact,
// the shared middle (deck, discard pile, Nursery, Neigh pile, effect chain), the log of the whole game, and
// the viewer's own Stable and hand docked at the bottom. Moves made by others since the table drawn last
// (`replay`) are played back one at a time, each with a caption, before the new table is drawn.
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
// The Babies' emblems (drawn by us): a foal's head in the Baby's colour with a mark of its own, so that
// each of the 13 is told apart by its look, not only by its name.
const BABY_LOOKS = {
  Red: ["#d32f2f", "heart"], Pink: ["#ec407a", "flower"], Orange: ["#ef6c00", "sun"], Yellow: ["#f9c80e", "star"],
  Green: ["#2e7d32", "leaf"], Blue: ["#1565c0", "drop"], Purple: ["#7b1fa2", "moon"], Black: ["#212121", "bolt"],
  White: ["#ffffff", "cloud"], Brown: ["#6d4c41", "mountain"], Rainbow: ["url(#uu-rainbow)", "arc"],
  Death: ["#546e7a", "cross"], Narwhal: ["#00838f", "wave"],
};
const MARKS = {
  heart: "<path d='M26 11c-3-2-5-4-5-6a2.5 2.5 0 0 1 5-1 2.5 2.5 0 0 1 5 1c0 2-2 4-5 6z'/>",
  flower: "<circle cx='26' cy='4' r='2'/><circle cx='29' cy='7' r='2'/><circle cx='26' cy='10' r='2'/><circle cx='23' cy='7' r='2'/>",
  sun: "<circle cx='26' cy='7' r='3'/><path d='M26 0v2M26 12v2M19 7h2M31 7h2M21 2l1.5 1.5M31 12l-1.5-1.5M21 12l1.5-1.5M31 2l-1.5 1.5' stroke='#1b1b1b' stroke-width='1.2'/>",
  star: "<polygon points='26,1 27.8,5.5 32,6 28.8,9 29.7,13.5 26,11 22.3,13.5 23.2,9 20,6 24.2,5.5'/>",
  leaf: "<path d='M21 12c0-7 5-10 11-10 0 6-4 11-11 10z'/>",
  drop: "<path d='M26 1c3 5 5 7 5 9a5 5 0 0 1-10 0c0-2 2-4 5-9z'/>",
  moon: "<path d='M28 1a6 6 0 1 0 4 10 5 5 0 1 1-4-10z'/>",
  bolt: "<polygon points='28,0 21,8 25.5,8 23,14 31,5 26.5,5'/>",
  cloud: "<path d='M21 11a3 3 0 0 1 1-6 4 4 0 0 1 8 1 2.5 2.5 0 0 1 0 5z' stroke='#1b1b1b' stroke-width='1'/>",
  mountain: "<polygon points='19,13 24,4 27,9 29,6 33,13'/>",
  arc: "<path d='M20 12a6 6 0 0 1 12 0' fill='none' stroke='#e53935' stroke-width='2'/><path d='M22.5 12a3.5 3.5 0 0 1 7 0' fill='none' stroke='#1e88e5' stroke-width='2'/>",
  cross: "<path d='M21 2l9 9M30 2l-9 9' stroke='#1b1b1b' stroke-width='2.4'/>",
  wave: "<path d='M19 9q3-4 6 0t7 0' fill='none' stroke='#1b1b1b' stroke-width='2'/>",
};
// Every word shown comes from Python in the `labels` trait (uu/table/widget.py LABELS, in the learner's
// language); this file holds none. L(key, vars) fills a label's {named} places; N(n, key) picks the singular
// or plural form (French counts 0 as singular: labels["plural.zero_one"]).
const PHASES = ["beginning", "draw", "action", "end"];
const PACES = [["slow", 1800], ["normal", 900], ["fast", 450], ["off", 0]];
const PACE_KEY = "uu-table-pace";
const NARROW = "(max-width: 700px)";  // the phone layout of table.css
const LONG_PRESS_MS = 500;

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

function svg(inner, size, box = 16) {
  const span = h("span", { class: "uu-t-icon", "aria-hidden": "true" });
  span.innerHTML = `<svg viewBox="0 0 ${box} ${box}" width="${size}" height="${size}" fill="currentColor">${inner}</svg>`;
  return span;
}

const ICON_NODES = new Map();
function icon(key) {
  if (!ICON_NODES.has(key)) ICON_NODES.set(key, svg(ICONS[key] || ICONS.back, 16));
  return ICON_NODES.get(key).cloneNode(true);
}

function hash(text) {
  let x = 2166136261;
  for (let i = 0; i < text.length; i++) { x ^= text.charCodeAt(i); x = Math.imul(x, 16777619); }
  return x >>> 0;
}

// A card's emblem: a Baby's own look, else a star drawn from the card's name (same name, same star).
const EMBLEMS = new Map();  // card name -> its emblem, drawn once and cloned (parsing SVG on every draw is slow)

function emblem(card) {
  const key = `${card.type}|${card.name}`;
  if (!EMBLEMS.has(key)) EMBLEMS.set(key, drawEmblem(card));
  return EMBLEMS.get(key).cloneNode(true);
}

function drawEmblem(card) {
  const span = h("span", { class: "uu-t-emblem", "aria-hidden": "true" });
  let inner;
  if (card.type === "baby") {
    const m = /\((\w+)\)/.exec(card.name) || /(Narwhal)/.exec(card.name);
    const [fill, mark] = BABY_LOOKS[m ? m[1] : "Red"] || BABY_LOOKS.Red;
    inner = "<defs><linearGradient id='uu-rainbow'><stop offset='0' stop-color='#e53935'/><stop offset='.33' " +
      "stop-color='#fdd835'/><stop offset='.66' stop-color='#43a047'/><stop offset='1' stop-color='#1e88e5'/>" +
      "</linearGradient></defs>" +
      `<g fill='${fill}' stroke='#1b1b1b' stroke-width='1'><ellipse cx='13' cy='21' rx='9' ry='8'/>` +
      "<ellipse cx='21' cy='25' rx='6' ry='4.5'/><polygon points='9,14 11,6 14,13'/></g>" +
      "<polygon points='13,14 17,3 17.5,13' fill='#ffd54f' stroke='#1b1b1b' stroke-width='.8'/>" +
      "<circle cx='15' cy='19' r='1.6' fill='#1b1b1b'/>" +
      `<g fill='#ffffff' stroke='#1b1b1b' stroke-width='.6'>${MARKS[mark] || ""}</g>`;
  } else {
    const x = hash(card.name || "");
    const n = 4 + (x % 5), r2 = 5 + ((x >> 3) % 6), rot = (x >> 7) % 360;
    const pts = [];
    for (let i = 0; i < 2 * n; i++) {
      const a = (Math.PI * i) / n + (rot * Math.PI) / 180, r = i % 2 ? r2 : 14;
      pts.push(`${(16 + r * Math.cos(a)).toFixed(1)},${(16 + r * Math.sin(a)).toFixed(1)}`);
    }
    const ring = (x >> 12) % 3;
    inner = `<polygon points='${pts.join(" ")}' fill='rgba(255,255,255,.9)' stroke='#1b1b1b' stroke-width='.8'/>` +
      (ring ? `<circle cx='16' cy='16' r='${ring + 2}' fill='none' stroke='#1b1b1b' stroke-width='1.2'/>` : "");
  }
  span.innerHTML = `<svg viewBox="0 0 34 32" width="30" height="28">${inner}</svg>`;
  return span;
}



function reducedMotion() {
  return !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

function storedPace() {
  try { return window.localStorage.getItem(PACE_KEY); } catch (e) { return null; }
}

// ---- pure functions: what the table makes of the messages (tested on their own: tests/js/table.test.mjs) ----

// A word of the table in the learner's language (`labels`, sent by uu/table/widget.py), its {names} filled in.
export function word(labels, key, vars) {
  const text = String((labels || {})[key] ?? key);
  return vars ? text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m)) : text;
}

// A counted word ("3 cards") in the form for n: the catalogs' singular and plural, French taking 0 as one.
export function counted(labels, n, key) {
  const one = n === 1 || (n === 0 && (labels || {})["plural.zero_one"] === "yes");
  return word(labels, `${key}.${one ? "one" : "other"}`, { n });
}

// A card as drawn: its facts (sent once, by English name; "" is the hidden card) under what the card dict
// itself says (TableWidget._lean in uu/table/widget.py left the facts out of every card it sends).
export function fullCard(facts, c) {
  if (!c || "type" in c) return c;
  const f = (facts || {})[c.name ?? ""];
  return f ? { ...f, ...c } : c;
}

// The whole table (uu/table/messages.py `TableView`, its log the newest lines) from the parts the widget sends.
export function tableFrom(seats, middle, state, logNew, facts) {
  if (!seats || !seats.players) return {};
  const full = (c) => fullCard(facts, c);
  const mid = { ...(middle || {}) };
  for (const zone of ["discard", "nursery"]) if (mid[zone]) mid[zone] = mid[zone].map(full);
  if (mid.pile) mid.pile = mid.pile.map((e) => ({ ...e, card: full(e.card) }));
  if (mid.chain) {
    mid.chain = mid.chain.map((link) => ({ ...link, effects: (link.effects || []).map((e) => {
      const card = full(e.card);
      return { ...e, card, text: e.text ?? card.text };
    }) }));
  }
  const players = seats.players.map((p) => ({ ...p, hand: (p.hand || []).map(full), stable: (p.stable || []).map(full) }));
  return { ...seats, players, ...mid, ...(state || {}), log: logNew || [] };
}

// After the element keys `clicks`: the actions whose gesture goes on from them, the keys that may be clicked
// next, and the id of the action chosen once exactly one gesture is complete (uu.table.seat_view.next_step
// is the same rule in Python).
// The line after the prompt: once a gesture is begun, the moves it can still become, when they are few enough
// to read; else how to go on. (Two-For-One's second click once listed some 80 moves in the prompt, which then
// filled the screen and pushed itself out of view: the screen explorer's game walk, issue 38.)
export const FEW_MOVES = 4;
export function statusHelp(labels, fitting) {
  if (fitting.length && fitting.length <= FEW_MOVES) return ` ${fitting.map((a) => a.description).join("; ")}.`;
  return ` ${word(labels, "lit_help")}`;
}

// What a view does with a new table and the steps that led to it (`replay`: {from: version, steps}): "play"
// them back on the table drawn last, when they go on from it; "join" the playback under way, when they go on
// from where it leads (slow bots, Hard at a table of six, send their moves in batches while they think); else
// "draw" the new table at once (another game, an undo, no pace, or "Skip to my move" pressed: then every batch
// is drawn at once until the learner is asked again).
export function newTable(replay, { drawn, playing, skipping, paced }) {
  const steps = replay && replay.steps && replay.steps.length && paced;
  if (playing && !playing.skip && steps && replay.from === playing.to) return "join";
  if (!playing && !skipping && drawn !== null && steps && replay.from === drawn) return "play";
  return "draw";
}

export function gestureStep(actions, clicks) {
  const n = clicks.length;
  const fits = (actions || []).filter((a) => clicks.every((k, i) => a.gesture[i] === k));
  const done = fits.filter((a) => a.gesture.length === n);
  const chosen = fits.length === 1 && done.length === 1 ? done[0].id : null;
  return { fits, next: new Set(fits.filter((a) => a.gesture.length > n).map((a) => a.gesture[n])), chosen };
}

function render({ model, el }) {
  // the words of the table, in the learner's language (see PHASES above)
  const L = (key, vars) => word(model.get("labels"), key, vars);
  const N = (n, key) => counted(model.get("labels"), n, key);
  // the lessons' seat "You" is shown as the learner's word for "you" (the seat's name stays its id)
  const NM = (name) => (String(name).toLowerCase() === "you" ? L("you") : name);
  const root = h("div", { class: "uu-t" });
  el.append(root);
  let clicks = [];          // element keys clicked so far in the gesture under way
  let waiting = false;      // a choice was sent: nothing is legal until the next table arrives
  let listOpen = false;
  let places = null;        // card id -> "zone/owner" on the table drawn last (what moved)
  let scheduled = false;
  let drawn = null;         // the version of the table drawn in this view
  let playing = null;       // the playback under way: {skip, wake, steps (a queue), to: the version it leads to}
  let skipping = false;     // "Skip to my move" was pressed: no playback until the learner is asked again
  let whyText = "";         // the answer to a click on an element that is not lit
  const logLines = new Map();  // index -> line: the whole game's log, as far as this view has it
  let askedLog = -1;

  const full = (c) => fullCard(model.get("facts"), c);
  const obs = () => tableFrom(model.get("seats"), model.get("middle"), model.get("state"), model.get("log_new"),
                              model.get("facts"));
  const actions = () => model.get("actions") || [];
  const hinted = () => new Set(model.get("hint") || []);

  function paceMs() {
    const chosen = PACES.find((p) => p[0] === storedPace());
    return chosen ? chosen[1] : Math.max(0, model.get("pace") || 0);
  }

  function fits() { return gestureStep(actions(), clicks).fits; }

  function nextKeys() {
    if (waiting || playing) return new Set();
    return gestureStep(actions(), clicks).next;
  }

  function send(id) {
    waiting = true;
    clicks = [];
    whyText = "";
    model.send({ type: "choose", id, version: model.get("version") });
    mark();
  }

  function activate(key, name, el) {
    if (waiting || playing) return;
    const legal = nextKeys();
    if (!legal.has(key)) {
      // a click off the gesture under way starts again from that element, if a gesture starts there
      clicks = [];
      if (!nextKeys().has(key)) {
        if (el && narrow() && el.querySelector(":scope > .uu-t-preview")) openPreview(el, true);  // a look at it
        mark();
        if (actions().length) model.send({ type: "why", key, name: name || "" });  // answered in one sentence
        return;
      }
    }
    whyText = "";
    clicks.push(key);
    const { chosen } = gestureStep(actions(), clicks);
    if (chosen !== null) send(chosen);
    else mark();
  }

  // data-legal on every element that continues a gesture; aria-pressed on the ones chosen so far;
  // data-hinted on every element of the hinted move(s).
  function mark() {
    const legal = nextKeys();
    const hint = hinted();
    const hintKeys = new Set(actions().filter((a) => hint.has(a.id)).flatMap((a) => a.gesture));
    // (an attribute is written only when it changes: most of a kept table's elements stay as they are)
    const flag = (e, name, on) => {
      if (on) { if (e.getAttribute(name) !== "true") e.setAttribute(name, "true"); }
      else if (e.hasAttribute(name)) e.removeAttribute(name);
    };
    for (const e of root.querySelectorAll("[data-key]")) {
      const key = e.getAttribute("data-key");
      flag(e, "data-legal", legal.has(key));
      flag(e, "aria-pressed", clicks.includes(key));
      flag(e, "data-hinted", hintKeys.has(key) && !playing);
    }
    // a choice inside a folded zone (discard, Nursery) unfolds it; folded again once nothing there is lit
    for (const d of root.querySelectorAll("details.uu-t-fold")) {
      if (d.querySelector("[data-legal='true']")) {
        if (!d.open) { d.open = true; d.setAttribute("data-unfolded", ""); }
      } else if (d.hasAttribute("data-unfolded")) { d.open = false; d.removeAttribute("data-unfolded"); }
    }
    // the page's contract: a choice was sent and the table waits for the next one (nothing is lit meanwhile)
    flag(root, "data-waiting", waiting);
    const status = root.querySelector(".uu-t-status");
    if (status) {
      const text = statusText(legal);
      const help = !text || waiting || playing || !legal.size ? "" : statusHelp(model.get("labels"), clicks.length ? fits() : []);
      status.replaceChildren(text, help ? h("span", { class: "uu-t-status-help", text: help }) : "");
      status.hidden = !text;
      // the page's contract: the line to read now, the learner's move or the others' being played out
      const prompt = model.get("prompt_here") && (playing || status.getAttribute("data-asks") === "true");
      if (prompt) status.setAttribute("data-role", "prompt"); else status.removeAttribute("data-role");
    }
    const why = root.querySelector(".uu-t-whynot");
    if (why) { why.textContent = whyText; why.hidden = !whyText; }
    const cancel = root.querySelector(".uu-t-cancel");
    if (cancel) cancel.hidden = clicks.length === 0;
    if (opened) placePreview();
    requestAnimationFrame(bringLitIntoView);
  }

  // The lit elements are brought into view inside the table's own scrolling boxes (never the page's): the
  // middle, when none of them is in view, and a row that scrolls sideways (a phone's hand). After the frame
  // is laid out, so that drawing a table never waits for a layout.
  // The hinted move's elements come first (a phone's deck, when the hint says DRAW, lay under the lit hand),
  // and a wrong move's preview shows the cards it moved (a card it destroyed arriving in the discard pile).
  function showIn(box, els) {
    const b = box.getBoundingClientRect();
    if (!els.length || els.some((e) => { const r = e.getBoundingClientRect(); return r.top >= b.top && r.bottom <= b.bottom; })) return;
    box.scrollTop += els[0].getBoundingClientRect().top - b.top - 8;
  }

  // the cards a wrong move's preview moved, the discard pile's first (a card it destroyed arriving there): all
  // of them when the box holds them, else from the topmost
  function showMoved(box, moved) {
    const discarded = moved.filter((e) => e.getAttribute("data-zone") === "discard");
    const els = discarded.length ? discarded : moved;
    for (const d of new Set(els.map((e) => e.closest("details.uu-t-fold")))) {  // the pile's older cards
      if (d && !d.open) { d.open = true; d.setAttribute("data-unfolded", ""); }
    }
    const b = box.getBoundingClientRect();
    const rs = els.map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    if (!rs.length) return;
    const top = Math.min(...rs.map((r) => r.top)), bottom = Math.max(...rs.map((r) => r.bottom));
    if (top < b.top || bottom - top > b.height) box.scrollTop += top - b.top - 4;
    else if (bottom > b.bottom) box.scrollTop += bottom - b.bottom + 4;
  }

  function bringLitIntoView() {
    markRows();
    const previewing = root.classList.contains("uu-t-previewing");
    // (each question below makes the browser lay the page out: none is asked while nothing is lit)
    if (!kept.resetScroll && !previewing && !root.querySelector("[data-legal='true']")) return;
    const scroll = root.querySelector(".uu-t-scroll");
    if (kept.resetScroll) {  // a new table starts from the top of its boxes, as a table drawn afresh did
      kept.resetScroll = false;
      for (const box of root.querySelectorAll(".uu-t-scroll, .uu-t-me, .uu-t-row")) {
        if (box.scrollTop) box.scrollTop = 0;
        if (box.scrollLeft) box.scrollLeft = 0;
      }
    }
    const litInScroll = scroll ? [...scroll.querySelectorAll("[data-legal='true']")] : [];
    const outside = [...root.querySelectorAll("[data-legal='true']")].filter((e) => !scroll || !scroll.contains(e));
    const shownOutside = outside.some((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight; });
    const hintedInScroll = litInScroll.filter((e) => e.getAttribute("data-hinted") === "true");
    if (scroll && previewing) showMoved(scroll, [...scroll.querySelectorAll(".uu-t-moved")]);
    else if (scroll && hintedInScroll.length && !clicks.length) showIn(scroll, hintedInScroll);
    else if (scroll && litInScroll.length && (!shownOutside || clicks.length)) showIn(scroll, litInScroll);
    const me = root.querySelector(".uu-t-me");
    const litMine = me && me.scrollHeight > me.clientHeight ? [...me.querySelectorAll("[data-legal='true']")] : [];
    if (litMine.length) {
      const box = me.getBoundingClientRect();
      if (!litMine.some((e) => { const r = e.getBoundingClientRect(); return r.top >= box.top && r.bottom <= box.bottom; }))
        me.scrollTop += litMine[0].getBoundingClientRect().top - box.top - 4;
    }
    for (const row of root.querySelectorAll(".uu-t-row")) {
      const first = row.querySelector("[data-legal='true']");
      if (!first || row.scrollWidth <= row.clientWidth) continue;
      const left = first.offsetLeft - row.offsetLeft;
      if (left < row.scrollLeft || left + first.offsetWidth > row.scrollLeft + row.clientWidth) row.scrollLeft = Math.max(0, left - 8);
    }
  }

  // A row that scrolls sideways (a phone's hand of many cards) says that more cards lie to a side:
  // data-more="left", "right" or "left right" on the row's part, drawn by table.css as a fade and an arrow.
  function markRows() {
    for (const row of root.querySelectorAll(".uu-t-me .uu-t-row, .uu-t-opp .uu-t-row")) {
      const part = row.parentElement;
      if (!part) continue;
      const more = row.scrollWidth > row.clientWidth + 1 ? [row.scrollLeft > 1 ? "left" : "",
        row.scrollLeft + row.clientWidth < row.scrollWidth - 1 ? "right" : ""].filter(Boolean).join(" ") : "";
      if ((part.getAttribute("data-more") || "") !== more) {
        if (more) part.setAttribute("data-more", more); else part.removeAttribute("data-more");
      }
    }
  }

  function statusText(legal) {
    const o = obs();
    if (o.over) return L("over", { result: o.result || L("no_winner") });
    if (playing) return L("others_moving");
    if (waiting) return L("sent");
    if (!o.decision || !o.decision.yours) return o.decision ? o.decision.prompt : "";
    if (!actions().length) return model.get("prompt_here") ? o.decision.prompt : "";
    if (!clicks.length) return L("your_move", { prompt: o.decision.prompt.replace(/^[^:]{1,40}: /, "") });
    return L("choose_lit", { count: legal.size });
  }

  function where(o, card) {
    const p = card.owner >= 0 ? o.players[card.owner] : null;
    if (p && (card.zone === "hand" || card.zone === "stable")) return p.is_viewer ? L(`in_your.${card.zone}`) : L(`in_their.${card.zone}`, { name: NM(p.name) });
    return L(`in_the.${card.zone}`);
  }

  // A card: a button (keyboard and touch alike), with its type as colour, icon and word, its emblem, name
  // and text; a larger preview shows on hover and on focus (so no hover is ever needed; on a phone: a long press).
  function cardEl(o, card, extra = {}) {
    if (!kept.drawing) return buildCard(o, card, extra);  // (a card a playback moves)
    // a card drawn the same way on the table before is taken again (see `kept`)
    const key = `${kept.epoch}|${JSON.stringify([card, where(o, card), extra.note || null])}`;
    const same = kept.pool && kept.pool.get(key);
    const el = same && same.pop();
    if (el) {
      el.classList.remove("uu-t-moved", "uu-t-arrived");
      el.removeAttribute("data-preview");
      return el;
    }
    const made = buildCard(o, card, extra);
    made.uuKey = key;
    return made;
  }

  function buildCard(o, card, extra) {
    const owner = card.owner >= 0 && o.players[card.owner] ? o.players[card.owner].name : null;
    if (card.name === null || card.name === undefined) {
      const label = L("hidden_card", { where: where(o, card) });
      return h("button", { type: "button", class: "uu-t-card uu-t-back", "data-card": "hidden", "data-zone": card.zone,
        "data-owner": owner, "data-key": card.key, "data-id": card.id, "aria-label": label, title: label }, icon("back"));
    }
    const [bg, fg] = TYPE_COLOURS[card.type] || ["#607d8b", "#ffffff"];
    const label = `${card.label || card.name}, ${card.type_label}, ${where(o, card)}. ${card.text || ""}${extra.note ? " " + extra.note : ""}`;
    const el = h("button", { type: "button", class: `uu-t-card uu-t-type-${card.type}`, "data-card": card.name,
      "data-zone": card.zone, "data-owner": owner, "data-key": card.key, "data-id": card.id, "aria-label": label,
      style: `--uu-bg:${bg};--uu-fg:${fg}` },
    head(card), cardName(card.label || card.name),
    h("span", { class: "uu-t-text", text: card.text || "" }));
    if (extra.note) el.append(h("span", { class: "uu-t-note", text: extra.note }));
    el.append(h("span", { class: "uu-t-preview", "aria-hidden": "true" },
      head(card), h("span", { class: "uu-t-name", text: card.label || card.name }), h("span", { class: "uu-t-ptext", text: card.text || "" })));
    return el;
  }

  // a card's name on its face. A name whose longest word cannot break ("(Regenbogen)" counts its brackets) has
  // that word's letters in --uu-len, and table.css sets it smaller where the card has room for fewer letters;
  // a word longer still also gets the soft hyphen its language's card table gives (labels "break:<name>"), since
  // a browser without that language's hyphenation breaks it anywhere. tests/test_table_e2e.py checks every
  // name on every kind of card.
  function cardName(text) {
    const shown = (model.get("labels") || {})[`break:${text}`] || text;
    const longest = Math.max(...shown.split(/[\s\u00ad-]+/).map((w) => w.length));
    return h("span", { class: "uu-t-name", text: shown, style: longest > 8 ? `--uu-len:${longest}` : null });
  }
  root.uuCardName = cardName;

  // a card's head: its emblem first, floated right (table.css), then the type's icon and word
  function head(card) {
    return h("span", { class: "uu-t-head" }, emblem(card), icon(card.icon), h("span", { class: "uu-t-type", text: card.type_label }));
  }

  function row(cards, empty, anchor) {
    const r = h("div", { class: "uu-t-row", "data-anchor": anchor || null });
    if (!cards.length) r.append(h("span", { class: "uu-t-empty", text: empty }));
    for (const c of cards) r.append(c);
    return r;
  }

  function paceControl() {
    const sel = h("select", { class: "uu-t-pace", "aria-label": L("pace_label") });
    const now = storedPace() || (PACES.find((p) => p[1] === model.get("pace")) || PACES[1])[0];
    for (const [key] of PACES) sel.append(h("option", { value: key, text: L(`pace.${key}`), selected: key === now }));
    sel.addEventListener("change", () => { try { window.localStorage.setItem(PACE_KEY, sel.value); } catch (e) { /* not kept */ } });
    return sel;
  }

  // ---- a card's large preview on a narrow screen ----------------------------------------------------------
  // There a hover never opens it: a finger's last tap leaves the card hovered, and the preview, docked at the
  // top of the window, hid the table's bar and its prompt. A long press on a card (or a right click), or a tap
  // on a card that cannot be chosen now, opens it between the bar and the bottom of the table (above the
  // lesson's panel: table.css); the next tap anywhere closes it and, on the table, chooses nothing (but after a
  // tap on a card that cannot be chosen: see onAnyPointerDown).
  let opened = null;        // the card whose preview is open
  let openedByTap = false;  // opened by a tap on a card that cannot be chosen (not a long press)
  let press = null;         // {card, x, y, timer} while a press may become a long one
  let swallow = false;      // the click of this tap chooses nothing (it ended a long press or closed a preview)

  function narrow() { return !!(window.matchMedia && window.matchMedia(NARROW).matches); }

  // On a wide screen a card's preview shows on hover and on keyboard focus, placed where it covers nothing the
  // learner needs: the table's bar (its prompt line, the playback's caption and "Skip to my move"), the
  // screen's prompt, the preview banner and every lit element. Beside the card, above or below it, or in a
  // corner of the window: the first place that covers none of them, else the one that covers least.
  function placeHover(card) {
    const pv = card && card.querySelector(":scope > .uu-t-preview");
    if (!pv || narrow()) return;
    const was = pv.style.display;
    pv.style.display = "flex";  // measured as it will show (:hover may not apply yet)
    const w = pv.offsetWidth, hgt = pv.offsetHeight;
    pv.style.display = was;
    if (!pv.getAttribute("style")) pv.removeAttribute("style");  // as a table drawn afresh has it
    const keep = [root.querySelector(".uu-t-top"), ...document.querySelectorAll("[data-role='prompt']"),
      ...root.querySelectorAll(".uu-t-caption, .uu-t-banner, [data-legal='true']"), card]
      .filter(Boolean).map((e) => e.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
    const c = card.getBoundingClientRect();
    const clampX = (x) => Math.max(8, Math.min(x, innerWidth - w - 8));
    const clampY = (y) => Math.max(8, Math.min(y, innerHeight - hgt - 8));
    const spots = [[c.right + 8, clampY(c.top)], [c.left - w - 8, clampY(c.top)], [clampX(c.left), c.top - hgt - 8],
      [clampX(c.left), c.bottom + 8], [8, innerHeight - hgt - 8], [innerWidth - w - 8, innerHeight - hgt - 8],
      [8, 8], [innerWidth - w - 8, 8]].filter(([x, y]) => x >= 0 && y >= 0 && x + w <= innerWidth && y + hgt <= innerHeight);
    let best = null, least = Infinity;
    for (const [x, y] of spots) {
      let covered = 0;
      for (const r of keep) {
        covered += Math.max(0, Math.min(x + w, r.right) - Math.max(x, r.left)) * Math.max(0, Math.min(y + hgt, r.bottom) - Math.max(y, r.top));
      }
      if (covered < least) { least = covered; best = [x, y]; }
      if (!covered) break;
    }
    if (!best) best = [clampX(c.left), clampY(c.bottom + 8)];
    root.style.setProperty("--uu-hv-left", `${Math.round(best[0])}px`);
    root.style.setProperty("--uu-hv-top", `${Math.round(best[1])}px`);
  }

  function placePreview() {
    const below = root.querySelector(".uu-t-scroll") || root;  // under the bar, the banner and the pile
    const top = Math.max(8, Math.min(below.getBoundingClientRect().top, innerHeight - 160));
    const bottom = Math.min(root.getBoundingClientRect().bottom, innerHeight) - 4;
    root.style.setProperty("--uu-pv-top", `${Math.round(top)}px`);
    root.style.setProperty("--uu-pv-max", `${Math.round(Math.max(120, bottom - top))}px`);
  }

  function openPreview(card, byTap = false) {
    closePreview();
    placePreview();
    card.setAttribute("data-preview", "open");
    opened = card;
    openedByTap = byTap;
  }

  function closePreview() {
    if (opened) opened.removeAttribute("data-preview");
    opened = null;
  }

  function cancelPress() {
    if (press) clearTimeout(press.timer);
    press = null;
  }

  function onPointerDown(ev) {
    cancelPress();
    const card = ev.target.closest && ev.target.closest(".uu-t-card");
    if (!narrow() || !card || !root.contains(card) || !card.querySelector(":scope > .uu-t-preview")) return;
    press = { card, x: ev.clientX, y: ev.clientY, timer: setTimeout(() => {
      press = null;
      swallow = true;
      openPreview(card);
    }, LONG_PRESS_MS) };
  }

  // every tap starts fresh; one while a preview is open closes it (capture: before anything acts on it), and
  // chooses nothing after a long press (a look asked for). After a tap on a card that cannot be chosen (its why
  // not, and a look at it), a tap on a lit element beside the preview also chooses that element: the learner
  // read why and tapped the card to choose, which must not take two taps. A tap on the preview itself (it lets
  // taps through to what lies under it) only closes it.
  const onAnyPointerDown = (ev) => {
    swallow = false;
    if (!opened) return;
    const shown = opened.querySelector(":scope > .uu-t-preview");
    const r = shown ? shown.getBoundingClientRect() : null;
    const onPreview = !!r && r.width > 0 && ev.clientX >= r.left && ev.clientX <= r.right &&
      ev.clientY >= r.top && ev.clientY <= r.bottom;
    const lit = ev.target.closest && ev.target.closest("[data-legal='true']");
    closePreview();
    if (root.contains(ev.target) && (onPreview || !lit || !openedByTap)) swallow = true;
  };

  // What the last draw built and may keep: the scrolling box, and the opponents' seats, the middle and the
  // viewer's seat, each with the inputs it was drawn from. A click changes one or two of them; the others stay
  // in the document as they are, so the browser neither builds them again nor works out their style and layout
  // again (a table is about two thousand elements). `kept.stale` after a playback moved cards about.
  // `pool`, while a table is drawn: the cards of the table before by what they show, to be taken again.
  const kept = { scroll: null, seats: null, parts: new Map(), stale: true, epoch: 0, resetScroll: false, pool: null,
    drawing: false };

  function cardPool() {
    const pool = new Map();
    for (const e of root.querySelectorAll(".uu-t-card")) {
      if (!e.uuKey) continue;
      if (!pool.has(e.uuKey)) pool.set(e.uuKey, []);
      pool.get(e.uuKey).push(e);
    }
    return pool;
  }

  function keptPart(name, inputs, build) {
    return keptParts(name, inputs, () => [build()])[0];
  }

  // the same for a part drawn as several elements side by side
  function keptParts(name, inputs, build) {
    const key = `${kept.epoch}|${JSON.stringify(inputs)}`;
    const old = kept.parts.get(name);
    if (old && !kept.stale && old.key === key) return old.els;
    const els = build();
    kept.parts.set(name, { key, els });
    return els;
  }

  // `parent`'s element children become `want`, in order, without taking out and putting back the ones kept
  // (an element taken out of the document loses its style and layout, and its focus).
  function setChildren(parent, want) {
    const wanted = new Set(want);
    for (const c of [...parent.children]) if (!wanted.has(c)) c.remove();
    want.forEach((e, i) => { if (parent.children[i] !== e) parent.insertBefore(e, parent.children[i] || null); });
  }

  function draw() {
    closePreview();
    cancelPress();
    // the words table.css shows in ::before/::after, as CSS strings the stylesheet reads with var()
    for (const [name, key] of [["--uu-l-hint", "badge_hint"], ["--uu-l-whynot", "badge_whynot"], ["--uu-l-stable", "badge_stable"]])
      root.style.setProperty(name, JSON.stringify(L(key) + (key === "badge_whynot" ? " " : "")));
    const lang = (model.get("labels") || {}).lang;
    if (lang && root.getAttribute("lang") !== lang) root.setAttribute("lang", lang);
    scheduled = false;
    waiting = false;
    playing = null;
    clicks = [];
    whyText = "";
    // keyboard users keep their place: focus returns to the same element, else to the first lit one
    const active = root.contains(document.activeElement) ? document.activeElement : null;
    const focusKey = active ? active.getAttribute("data-key") : null;
    const o = obs();
    const acts = actions();
    if (acts.length || !o.players || o.over) skipping = false;  // the learner is asked (or nothing is left to play)
    drawn = model.get("version");
    root.setAttribute("data-version", String(drawn));
    root.removeAttribute("data-playing");
    if (!o.players) {
      root.replaceChildren(h("p", { text: L("no_game") }));
      kept.scroll = null; kept.seats = null; kept.parts.clear();
      return;
    }
    const viewerSeat = o.players.findIndex((p) => p.is_viewer);
    kept.pool = kept.stale ? null : cardPool();
    kept.drawing = true;
    const want = [topEl(o, acts)];
    const ban = model.get("banner") || {};
    if (ban.title) {
      const again = h("button", { type: "button", class: "uu-t-banner-button", text: ban.button || L("back") });
      again.addEventListener("click", () => model.send({ type: "banner", version: model.get("version") }));
      want.push(h("div", { class: `uu-t-banner uu-t-banner-${ban.kind || "note"}`, role: "status" },
        h("strong", { class: "uu-t-banner-title", text: ban.title }), h("span", { class: "uu-t-banner-text", text: ` ${ban.text || ""} ` }), again));
      root.classList.add("uu-t-previewing");
    } else root.classList.remove("uu-t-previewing");
    want.push(h("div", { class: "uu-t-caption", role: "status", "aria-live": "polite", hidden: true }));
    if ((o.pile || []).length || (o.chain || []).length) want.push(focusEl(o));

    // what every seat and card reads of the others: names and whose view this is
    const who = o.players.map((p) => [p.name, p.is_viewer]);
    const seatInputs = (p, me) => [me, p, o.over, o.turn.player === p.seat, who];
    kept.scroll = kept.scroll || h("div", { class: "uu-t-scroll" });
    kept.seats = kept.seats || h("div", { class: "uu-t-seats" });
    const before = new Set(kept.parts.values());
    setChildren(kept.seats, o.players.filter((p) => !p.is_viewer).map((p) =>
      keptPart(`seat:${p.seat}`, seatInputs(p, false), () => seatEl(o, p, false))));
    setChildren(kept.scroll, [kept.seats, middleEl(o, who), fallbackEl(acts), logEl(o)]);
    want.push(kept.scroll);
    if (viewerSeat >= 0) {
      const p = o.players[viewerSeat];
      want.push(keptPart("me", seatInputs(p, true), () => seatEl(o, p, true)));
    }
    setChildren(root, want);
    kept.pool = null;
    kept.drawing = false;
    kept.stale = false;
    kept.resetScroll = true;
    // a kept element did not move: last table's highlight goes (the outline of a preview reads it)
    for (const part of kept.parts.values()) {
      if (before.has(part)) for (const el of part.els) for (const e of el.querySelectorAll(".uu-t-moved")) e.classList.remove("uu-t-moved");
    }
    for (const [name, part] of kept.parts) if (!part.els.every((e) => e.isConnected)) kept.parts.delete(name);

    highlightMoves();
    mark();
    if (active) {
      const same = focusKey && [...root.querySelectorAll("[data-key]")].find((e) => e.getAttribute("data-key") === focusKey);
      const again = same || root.querySelector("[data-legal='true']");
      if (again && again !== document.activeElement) again.focus({ preventScroll: true });
    }
  }

  function topEl(o, acts) {
    const head = h("div", { class: "uu-t-top" });
    const turn = o.turn.number ? (o.players[o.turn.player].is_viewer ? L("turn_yours", { number: o.turn.number }) : L("turn_theirs", { number: o.turn.number, name: NM(o.turn.name) })) : L("setup");
    const track = h("ol", { class: "uu-t-phases", "aria-label": L("phases") });
    for (const key of PHASES) {
      const label = L(`phase.${key}`);
      const cur = o.turn.number && key === o.turn.phase;
      track.append(h("li", { class: cur ? "uu-t-phase uu-t-phase-now" : "uu-t-phase", "aria-current": cur ? "step" : null, text: label }));
    }
    head.append(h("div", { class: "uu-t-turnbar" }, h("span", { class: "uu-t-turn", text: turn }), track));
    const mine = !!(o.decision && o.decision.yours && acts.length);
    const status = h("div", { class: mine ? "uu-t-status uu-t-status-mine" : "uu-t-status", role: "status", "aria-live": "polite",
      "data-asks": mine || o.over ? "true" : null });
    const cancel = h("button", { type: "button", class: "uu-t-cancel", hidden: true, text: L("cancel") });
    cancel.addEventListener("click", () => { clicks = []; mark(); });
    head.append(h("div", { class: "uu-t-prompt" }, status, cancel));
    head.append(h("div", { class: "uu-t-whynot", role: "status", hidden: true }));
    // choices that are no card on the table: an effect's options, a search of the deck, decline
    const opts = acts.filter((a) => a.option);
    const decline = acts.find((a) => a.kind === "decline");
    if (opts.length || decline) {
      const box = h("div", { class: "uu-t-options", role: "group", "aria-label": L("choices") });
      for (const a of opts) box.append(h("button", { type: "button", class: "uu-t-option", "data-role": "choice", "data-key": `option:${a.id}`, text: a.option }));
      if (decline) box.append(h("button", { type: "button", class: "uu-t-option", "data-role": "choice", "data-key": "decline", text: decline.description.replace(/^decline/, L("decline")) }));
      head.append(box);
    }
    return head;
  }

  function fallbackEl(acts) {
    const toggle = h("button", { type: "button", class: "uu-t-list-toggle", "aria-expanded": String(listOpen),
      text: L("moves_count", { count: acts.length }), disabled: acts.length ? null : true });
    const list = h("div", { class: "uu-t-moves", hidden: !listOpen, role: "group", "aria-label": L("moves") });
    for (const a of acts) {
      const b = h("button", { type: "button", class: "uu-t-move", "data-action": a.id, text: a.description });
      b.addEventListener("click", () => { if (!waiting && !playing) send(a.id); });
      list.append(b);
    }
    toggle.addEventListener("click", () => {
      listOpen = !listOpen;
      list.hidden = !listOpen;
      toggle.setAttribute("aria-expanded", String(listOpen));
    });
    return h("div", { class: "uu-t-fallback" }, toggle, paceControl(), list);
  }

  // The whole game's log, newest turn first, each line with why; lines this view lacks are asked for. The
  // section is kept from table to table and only the new lines are added (a long game has hundreds).
  let logBox = null;
  let logGroup = null;       // the newest turn's section
  let logShown = -1;         // the highest line index in logBox

  function lineEl(line) {
    const d = h("details", { class: "uu-t-logline" }, h("summary", { text: line.text }));
    const why = line.why && line.why.length ? line.why : [L("no_rule")];
    for (const w of why) d.append(h("div", { class: "uu-t-why", text: w }));
    return d;
  }

  function addLine(line) {
    const turn = line.turn;  // the line that starts a turn says its number (its text is in the learner's language)
    if (turn || !logGroup) {
      logGroup = h("div", { class: "uu-t-turnlog" }, h("h4", { class: "uu-t-turnlog-title", text: turn ? L("turn_n", { number: turn }) : L("setup_title") }));
      logBox.querySelector(".uu-t-turnlogs").prepend(logGroup);
    }
    logGroup.append(lineEl(line));
    logShown = line.index;
  }

  function logEl(o) {
    const size = model.get("log_size") || 0;
    if ([...logLines.keys()].some((i) => i >= size)) { logLines.clear(); logBox = null; }  // another game
    let backfill = false;
    for (const line of o.log || []) {
      if (line.index < logShown && !logLines.has(line.index)) backfill = true;
      logLines.set(line.index, line);
    }
    let missing = -1;
    for (let i = 0; i < size; i++) if (!logLines.has(i)) { missing = i; break; }
    if (missing >= 0 && askedLog !== missing) { askedLog = missing; model.send({ type: "log", from: missing }); }
    if (!logBox || backfill) {
      logBox = h("section", { class: "uu-t-log", tabindex: "0", "aria-label": L("log_aria") },
        h("h3", { class: "uu-t-label", text: L("log_title") }),
        h("div", { class: "uu-t-turnlogs" }));
      logGroup = null;
      logShown = -1;
    }
    for (let i = logShown + 1; i < size; i++) {
      const line = logLines.get(i);
      if (!line) break;  // the rest comes with the answer to the request above
      addLine(line);
    }
    return logBox;
  }

  function seatEl(o, p, me) {
    const cls = ["uu-t-seat", me ? "uu-t-you uu-t-me" : "uu-t-opp"];
    if (!o.over && o.turn.player === p.seat) cls.push("uu-t-current");
    const stableWords = p.is_viewer ? L("your_stable") : L("their_stable", { name: NM(p.name) });
    const sec = h("section", { class: cls.join(" "), "aria-label": `${p.is_viewer ? L("you") : p.name}: ${N(p.unicorns, "unicorns")}` });
    const place = h("button", { type: "button", class: "uu-t-place uu-t-stable-place", "data-place": "stable",
      "data-owner": p.name, "data-key": `seat:${p.seat}`,
      "aria-label": `${stableWords}, ${N(p.unicorns, "unicorns")}${o.turn.player === p.seat ? ". " + L("their_turn") : ""}` },
    h("span", { class: "uu-t-seat-name", text: p.is_viewer && p.name.toLowerCase() !== "you" ? L("you_suffix", { name: NM(p.name) }) : (p.is_viewer ? L("you") : p.name) }),
    h("span", { class: "uu-t-count", text: L("count_line", { unicorns: N(p.unicorns, "unicorns"), cards: N(p.hand_size, "cards_in_hand") }) }));
    sec.append(place);
    const stable = h("div", { class: "uu-t-part" }, h("div", { class: "uu-t-label", text: stableWords }),
      row(p.stable.map((c) => cardEl(o, c)), L("empty"), `stable:${p.seat}`));
    const handLabel = p.is_viewer ? L("your_hand") : L(p.hand_open ? "their_hand_open" : "their_hand", { name: NM(p.name) });
    const hand = h("div", { class: "uu-t-part" }, h("div", { class: "uu-t-label", text: handLabel }),
      row(p.hand.map((c) => cardEl(o, c)), L("no_cards"), `hand:${p.seat}`));
    sec.append(h("div", { class: "uu-t-parts" }, stable, hand));
    return sec;
  }

  // the middle: each of its zones is kept while what it shows is the same (a card drawn changes the deck's
  // count, not the Nursery's 13 Babies)
  function middleEl(o, who) {
    const mid = keptPart("middle", [], () => h("section", { class: "uu-t-middle", "aria-label": L("middle") }));
    const zones = [keptPart("middle:deck", [o.deck_size], () => deckZone(o)),
      keptPart("middle:discard", [o.discard, who], () => discardZone(o)),
      keptPart("middle:nursery", [o.nursery, who], () => nurseryZone(o))];
    if (!(o.pile || []).length && !(o.chain || []).length)
      zones.push(...keptParts("middle:pile", [o.decision && [o.decision.yours, o.decision.kind], who], () => pileZones(o)));
    setChildren(mid, zones);
    return mid;
  }

  function deckZone(o) {
    const deck = h("button", { type: "button", class: "uu-t-card uu-t-back uu-t-deck", "data-card": "hidden",
      "data-zone": "deck", "data-key": "deck", "data-anchor": "deck", "aria-label": L("deck_aria", { cards: N(o.deck_size, "cards") }) },
    icon("back"), h("span", { class: "uu-t-name", text: String(o.deck_size) }));
    return h("div", { class: "uu-t-zone" }, h("div", { class: "uu-t-label", text: L("deck") }), deck);
  }

  function discardZone(o) {
    const discard = o.discard || [];
    const top = h("div", { class: "uu-t-row", "data-anchor": "discard" },
      discard.length ? cardEl(o, discard[discard.length - 1]) : h("span", { class: "uu-t-empty", text: L("empty") }));
    const fold = h("details", { class: "uu-t-fold" },
      h("summary", { text: L("all_cards", { cards: N(discard.length, "cards") }) }),
      row(discard.slice(0, -1).reverse().map((c) => cardEl(o, c)), L("no_other_cards")));
    return h("div", { class: "uu-t-zone" }, h("div", { class: "uu-t-label", text: L("discard") }), top, discard.length > 1 ? fold : null);
  }

  function nurseryZone(o) {
    const nursery = o.nursery || [];
    const nfold = h("details", { class: "uu-t-fold" },
      h("summary", { text: N(nursery.length, "babies") }), row(nursery.map((c) => cardEl(o, c)), L("no_babies"), "nursery"));
    return h("div", { class: "uu-t-zone uu-t-nursery" }, h("div", { class: "uu-t-label", text: L("nursery") }), nfold);
  }

  // The Neigh pile and the effect chain: in the middle while empty; while anything waits on them they are
  // drawn under the bar on top, outside the scrolling middle, so that what is resolving is always in view.
  function pileZones(o) {
    const out = [];
    const pile = o.pile || [];
    const respond = o.decision && o.decision.yours && o.decision.kind === "respond";
    const pileLabel = respond ? L("pile_pass") : L("pile_play", { cards: N(pile.length, "cards") });
    const place = h("button", { type: "button", class: "uu-t-place uu-t-pile-place", "data-place": "pile", "data-key": "pile",
      "aria-label": pileLabel, text: respond ? L("pass") : L("pile") });
    const stack = h("ol", { class: "uu-t-stack", "aria-label": L("pile_stack"), "data-anchor": "pile" });
    pile.forEach((e, i) => {
      const note = L(i === pile.length - 1 ? "played_by_top" : "played_by", { name: NM(e.player) });
      stack.append(h("li", {}, cardEl(o, e.card, { note })));
    });
    out.push(h("div", { class: "uu-t-zone uu-t-pile" }, h("div", { class: "uu-t-label", text: L("pile") }), place, stack));
    const chain = o.chain || [];
    if (chain.length) {
      const list = h("ol", { class: "uu-t-chain", "aria-label": L("chain_aria") });
      chain.forEach((link) => {
        for (const e of link.effects) {
          const li = h("li", { class: link.current ? "uu-t-link uu-t-link-now" : "uu-t-link", "aria-current": link.current ? "step" : null },
            h("b", { text: L("chain_card", { card: e.card.label || e.card.name, name: NM(e.player) }) }), h("span", { text: ` — ${L(link.current ? "resolving_now" : "then")} ` }),
            h("span", { class: "uu-t-link-text", text: e.text }));
          list.append(li);
        }
      });
      out.push(h("div", { class: "uu-t-zone uu-t-chainbox" }, h("div", { class: "uu-t-label", text: L("chain") }), list));
    }
    return out;
  }

  function focusEl(o) {
    return h("section", { class: "uu-t-focus", "aria-label": L("focus") }, ...pileZones(o));
  }

  // Cards that changed zone since the last table get a short highlight (none under reduced motion: CSS).
  function highlightMoves() {
    const now = new Map();
    for (const e of root.querySelectorAll("[data-id]")) {
      const id = e.getAttribute("data-id");
      const at = `${e.getAttribute("data-zone")}/${e.getAttribute("data-owner") || ""}`;
      now.set(id, at);
      if (places && places.get(id) !== at) e.classList.add("uu-t-moved");
    }
    places = now;
  }

  // ---- playback: the others' moves, one at a time, on the table drawn last ----------------------------
  function anchorFor(o, zone, owner) {
    if (zone === "stable" || zone === "hand") return root.querySelector(`[data-anchor="${zone}:${owner}"]`);
    if (zone === "limbo") return root.querySelector('[data-anchor="pile"]');
    return root.querySelector(`[data-anchor="${zone}"]`);
  }

  function sourceFor(m) {
    if (m.id) { const e = root.querySelector(`[data-id="${m.id}"]`); if (e) return e; }
    const [zone, owner] = m.from;
    if (zone === "hand") { const r = root.querySelector(`[data-anchor="hand:${owner}"]`); return r && r.querySelector(".uu-t-back:last-of-type"); }
    if (zone === "deck") return root.querySelector('[data-anchor="deck"]');
    return null;
  }

  function fly(from, to, ms) {
    if (!from || !to || reducedMotion() || ms < 200) return;
    const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
    const ghost = from.cloneNode(true);
    ghost.removeAttribute("data-key"); ghost.removeAttribute("data-id"); ghost.removeAttribute("data-legal");
    ghost.classList.add("uu-t-ghost");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, { left: `${a.left}px`, top: `${a.top}px`, width: `${a.width}px`, height: `${a.height}px` });
    root.append(ghost);
    const dx = b.left + Math.min(b.width, 40) / 2 - a.left - a.width / 2, dy = b.top + Math.min(b.height, 40) / 2 - a.top - a.height / 2;
    ghost.animate([{ transform: "translate(0,0)" }, { transform: `translate(${dx}px,${dy}px)` }],
      { duration: Math.min(ms * 0.6, 600), easing: "ease-in-out", fill: "forwards" }).finished.then(() => ghost.remove(), () => ghost.remove());
  }

  function moveCard(o, m, ms) {
    const [zone, owner] = m.to;
    const src = sourceFor(m);
    const dest = anchorFor(o, zone, owner);
    fly(src, dest, ms);
    if (src && src.getAttribute("data-zone") !== "deck") src.remove();
    if (!dest) return;
    const card = m.name ? { ...full(m), zone, owner: zone === "hand" || zone === "stable" ? owner : -1 } :
      { id: null, key: `moving:${owner}`, name: null, zone, owner };
    const el = cardEl(o, card);
    el.classList.add("uu-t-arrived");
    el.tabIndex = -1;
    if (zone === "discard") dest.replaceChildren(el);
    else {
      for (const e of dest.querySelectorAll(".uu-t-empty")) e.remove();
      dest.append(zone === "pile" || zone === "limbo" ? h("li", {}, el) : el);
    }
  }

  function sleep(ms, state) {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      state.wake = () => { clearTimeout(t); resolve(); };
    });
  }

  async function playback(steps, to) {
    const state = { skip: false, wake: null, steps, to };
    playing = state;
    kept.stale = true;  // the cards moved about: the next table is drawn afresh
    root.setAttribute("data-playing", "true");
    mark();
    const o = obs();
    const cap = root.querySelector(".uu-t-caption");
    const text = h("span", { class: "uu-t-caption-text" });
    const skip = h("button", { type: "button", class: "uu-t-skip", text: L("skip") });
    skip.addEventListener("click", () => { state.skip = true; skipping = true; if (state.wake) state.wake(); });
    if (cap) { cap.replaceChildren(text, skip); cap.hidden = false; }
    for (let i = 0; i < steps.length && !state.skip; i++) {
      const s = steps[i];
      const ms = s.yours ? Math.min(paceMs(), 500) : paceMs();
      if (ms <= 0) break;
      for (const e of root.querySelectorAll(".uu-t-arrived")) e.classList.remove("uu-t-arrived");
      text.replaceChildren(h("b", { text: s.lines[0] || L("a_move") }), ...(s.lines.slice(1, 3).map((l) => h("span", { class: "uu-t-caption-more", text: ` ${l}` }))));
      if (cap) cap.setAttribute("data-step", String(i));
      for (const m of s.moved) moveCard(o, m, ms);
      await sleep(ms, state);
    }
    if (playing === state) draw();
  }

  function update() {
    scheduled = false;
    const v = model.get("version");
    if (v === drawn) { mark(); return; }
    const rep = model.get("replay") || {};
    const how = newTable(rep, { drawn, playing, skipping, paced: paceMs() > 0 });
    if (how === "join") {
      playing.steps.push(...rep.steps);
      playing.to = v;
      return;
    }
    if (how === "play") {
      playback(rep.steps, v);
      return;
    }
    if (playing) { playing.skip = true; if (playing.wake) playing.wake(); playing = null; }
    draw();
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(update);  // observation, actions and version arrive together: draw once
  }

  root.addEventListener("click", (ev) => {
    if (swallow) { swallow = false; return; }
    const target = ev.target.closest("[data-key]");
    if (!target || !root.contains(target)) return;
    activate(target.getAttribute("data-key"), target.getAttribute("data-card"), target);
  });
  root.addEventListener("pointerdown", onPointerDown);
  root.addEventListener("pointerup", cancelPress);
  root.addEventListener("pointercancel", cancelPress);  // the row or the middle scrolls instead
  root.addEventListener("pointermove", (ev) => {
    if (press && Math.hypot(ev.clientX - press.x, ev.clientY - press.y) > 10) cancelPress();
  });
  root.addEventListener("contextmenu", (ev) => {  // a long press's menu on a phone, a right click
    const card = ev.target.closest(".uu-t-card");
    if (!narrow() || !card || !card.querySelector(":scope > .uu-t-preview")) return;
    ev.preventDefault();
    cancelPress();
    swallow = true;
    openPreview(card);
  });
  // a card's preview on focus, placed (a phone's under the bar; a wide screen's where it covers nothing needed)
  root.addEventListener("focusin", (ev) => { if (narrow()) placePreview(); else placeHover(ev.target.closest(".uu-t-card")); });
  root.addEventListener("scroll", (ev) => { if (ev.target.classList && ev.target.classList.contains("uu-t-row")) markRows(); }, true);
  root.addEventListener("pointerover", (ev) => {
    if (ev.pointerType === "mouse" && ev.target.closest) placeHover(ev.target.closest(".uu-t-card"));
  });
  document.addEventListener("pointerdown", onAnyPointerDown, true);
  root.addEventListener("keydown", (ev) => {
    swallow = false;
    if (ev.key === "Escape" && opened) { closePreview(); ev.stopPropagation(); return; }
    if (ev.key === "Escape" && clicks.length) { clicks = []; mark(); ev.stopPropagation(); }
  });
  const onMsg = (msg) => {
    if (!msg) return;
    if (msg.type === "why" && typeof msg.text === "string") { whyText = msg.text; mark(); }
    if (msg.type === "log" && Array.isArray(msg.lines)) {
      for (const line of msg.lines) logLines.set(line.index, line);
      logBox = null;  // drawn again in order, with the lines that came
      const old = root.querySelector(".uu-t-log");
      if (old && !playing) old.replaceWith(logEl(obs()));
    }
  };
  const onHint = () => mark();
  const onBanner = () => { if (!playing) draw(); };
  const onLabels = () => { kept.epoch += 1; onBanner(); };
  const rolesOff = watchRoles(el);
  const PARTS = ["seats", "middle", "state", "log_new", "log_size"];
  for (const part of PARTS) model.on(`change:${part}`, schedule);
  model.on("change:actions", schedule);
  model.on("change:version", schedule);
  model.on("change:hint", onHint);
  model.on("change:banner", onBanner);
  model.on("change:labels", onLabels);  // another language: the same table, redrawn in its words
  model.on("change:facts", onLabels);
  model.on("msg:custom", onMsg);
  draw();
  // the same table built from nothing, for a test that drawing only what changed draws the same table
  root.uuDrawAfresh = () => { kept.stale = true; draw(); };
  return () => {
    for (const part of PARTS) model.off(`change:${part}`, schedule);
    model.off("change:actions", schedule);
    model.off("change:version", schedule);
    model.off("change:hint", onHint);
    model.off("change:banner", onBanner);
    model.off("change:labels", onLabels);
    model.off("change:facts", onLabels);
    model.off("msg:custom", onMsg);
    rolesOff();
    cancelPress();
    document.removeEventListener("pointerdown", onAnyPointerDown, true);
  };
}

// The screen around the table marks its controls with CSS classes uu-role-<role> (ipywidgets buttons take
// classes, not attributes); they get data-role="<role>" here, so that one contract (docs/architecture.md)
// finds the prompt, the choices, Next and the feedback on every screen.
function watchRoles(el) {
  let observer = null;
  let tries = 0;
  const apply = (screen) => {
    for (const e of screen.querySelectorAll("[class*='uu-role-']")) {
      const m = /(?:^|\s)uu-role-([a-z]+)/.exec(e.className);
      if (m && e.getAttribute("data-role") !== m[1]) { e.setAttribute("data-role", m[1]); e.setAttribute("data-role-class", ""); }
    }
    for (const e of screen.querySelectorAll("[data-role-class]")) {
      if (!/(?:^|\s)uu-role-/.test(e.className)) { e.removeAttribute("data-role"); e.removeAttribute("data-role-class"); }
    }
  };
  const attach = () => {
    const screen = el.closest(".uu-screen");
    if (!screen) { if (tries++ < 50) setTimeout(attach, 100); return; }
    apply(screen);
    // the table's own changes (thousands of elements a game) carry no role class: only the rest is looked at
    observer = new MutationObserver((records) => { if (records.some((r) => !el.contains(r.target))) apply(screen); });
    observer.observe(screen, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
  };
  setTimeout(attach, 0);
  return () => { if (observer) observer.disconnect(); tries = 99; };
}

export default { render };
