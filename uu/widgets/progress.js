// The learner's progress in the browser's localStorage (uu/widgets/progress.py): no accounts, and it
// outlives a reload, a culled kernel or an ended Binder session.
//
// On render the keys that start with "uu" are read and sent to Python ({type: "restore", items}), which
// validates them (the page's storage is not trusted). Python then sets the `state` trait whenever progress
// changes; it is written here under KEY. {type: "forget"} removes every "uu" key.
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
  model.send({ type: "restore", items, href, browser });
  // only changes are written: the initial, empty state must not wipe what was just read
  const onState = () => write(s, model.get("state"));
  const onMsg = (msg) => { if (msg && msg.type === "forget") clear(s); };
  model.on("change:state", onState);
  model.on("msg:custom", onMsg);
  return () => { model.off("change:state", onState); model.off("msg:custom", onMsg); };
}

export default { render };
