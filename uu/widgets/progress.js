// The learner's progress in the browser's localStorage (uu/widgets/progress.py): no accounts, and it
// outlives a reload, a culled kernel or an ended Binder session.
//
// On render the keys that start with "uu" are read and sent to Python ({type: "restore", items}), which
// validates them (the page's storage is not trusted) and answers {type: "write", state}: its state once it
// has taken in what was read, written here under KEY. The `state` trait's changes are written too.
// {type: "forget"} removes every "uu" key; {type: "unlink"} drops ?lesson= and ?position= from the address.
// localStorage may be missing or throw (private mode, storage disabled): the app then works without it.

const KEY = "uu-progress";

function storage() {
  try {
    const s = window.localStorage;
    s.getItem(KEY); // throws in some private modes
    return s;
  } catch (e) {
    return null;
  }
}

function ourKeys(s) {
  const keys = [];
  for (let i = 0; i < s.length; i++) {
    const k = s.key(i);
    if (k !== null && k.startsWith("uu")) keys.push(k);
  }
  return keys;
}

function clear(s) {
  try {
    for (const k of ourKeys(s)) s.removeItem(k);
  } catch (e) { /* nothing to do: progress simply is not kept */ }
}

function write(s, state) {
  try {
    if (state && Object.keys(state).length) s.setItem(KEY, JSON.stringify(state));
    else clear(s);
  } catch (e) { /* quota exceeded or storage refused: progress simply is not kept */ }
}

// The learner left the screen the page's link opened (?lesson=, ?position=): the address drops the link, so a
// reload lands where they are now (Python's saved screen), not on the link's lesson again.
function unlink() {
  try {
    const url = new URL(window.location.href);
    url.searchParams.delete("lesson");
    url.searchParams.delete("position");
    window.history.replaceState(window.history.state, "", url.href);
  } catch (e) { /* an address that cannot change (a sandboxed frame): the link stays */ }
}

function render({ model, el }) {
  el.classList.add("uu-progress-store");
  const s = storage();
  el.setAttribute("data-storage", s ? "yes" : "no");
  // the page's own address goes with the restore: a link may open a lesson or a position (?lesson=, ?position=)
  const href = String(window.location.href);
  // the browser's language: the tutor's language when no link, saved choice or class default names one
  const browser = String((navigator.languages && navigator.languages[0]) || navigator.language || "");
  if (!s) {
    model.send({ type: "restore", items: {}, href, browser });
    return;
  }
  const items = {};
  try {
    for (const k of ourKeys(s)) items[k] = s.getItem(k);
  } catch (e) { /* unreadable: restore nothing */ }
  // The state this view was created with is not written as it is: it may predate what was just read. It may
  // also hold what the learner did before this view loaded (a busy page shows the home first), which no change
  // event brings; so Python answers the restore with its state, merged, and that is written (an empty one never
  // wipes what is kept).
  const onState = () => write(s, model.get("state"));
  const onMsg = (msg) => {
    if (!msg) return;
    if (msg.type === "forget") clear(s);
    if (msg.type === "unlink") unlink();
    if (msg.type === "write" && msg.state && typeof msg.state === "object" && Object.keys(msg.state).length) write(s, msg.state);
  };
  model.on("change:state", onState);
  model.on("msg:custom", onMsg);
  model.send({ type: "restore", items, href, browser });
  return () => { model.off("change:state", onState); model.off("msg:custom", onMsg); };
}

export default { render };
