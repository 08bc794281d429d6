// The home's lessons (uu/widgets/lessonlist.py): every row drawn here from the data Python sends, so that the
// list is one widget model instead of three per lesson.
//
// Each row is a real <button> (keyboard and screen reader reach it as any button) with the classes the tests
// and docs/screenshots.py select on, and the lesson's text beside it. The buttons carry ipywidgets' own
// button classes, so they look like every other button of the app. A click sends {type: "open", id}; Python
// checks the id. Every word comes from Python, already translated, and is set as text, never as HTML.
//
// Rows are kept by lesson id and updated in place: a refresh of the home never rebuilds a button, so the
// one with the keyboard's focus keeps it.

function node(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function makeRow(model, id) {
  const el = node("div", "uu-lesson-row");
  const button = node("button", "jupyter-widgets jupyter-button widget-button uu-open-lesson uu-lesson-" + id);
  button.type = "button";
  button.addEventListener("click", () => model.send({ type: "open", id }));
  const text = node("div", "uu-lesson-text");
  const name = node("b", "uu-lesson-name");
  const status = node("span");
  const summary = node("span", "uu-lesson-summary");
  text.append(name, " ", status, node("br"), summary);
  el.append(button, text);
  return { el, button, name, status, summary };
}

function fill(row, r) {
  const set = (e, value) => { if (e.textContent !== value) e.textContent = value; };
  set(row.button, String(r.button));
  if (row.button.title !== r.tooltip) row.button.title = String(r.tooltip);
  row.button.classList.toggle("mod-primary", !!r.primary);
  set(row.name, `${r.order}. ${r.title}`);
  const statusClass = String(r.status_class || "");
  if (row.status.className !== statusClass) row.status.className = statusClass;
  set(row.status, `(${r.status}${r.where || ""})`);
  set(row.summary, String(r.summary || ""));
}

// `items` in order in `box`, moving only what is out of place (a moved button loses the focus)
function place(box, items) {
  items.forEach((e, i) => {
    if (box.children[i] !== e) box.insertBefore(e, box.children[i] || null);
  });
  while (box.children.length > items.length) box.lastChild.remove();
}

function brokenNote(b) {
  const e = node("div", "uu-broken-lesson");
  e.setAttribute("role", "note");
  e.append(String(b.before || ""), node("b", "", String(b.file || "")), String(b.after || ""));
  return e;
}

function render({ model, el }) {
  el.classList.add("uu-lesson-list");
  const heading = node("h3", "uu-lessons-h");
  const course = node("div", "uu-lessons");
  const teacherHeading = node("h3", "uu-lessons-h");
  const teacher = node("div", "uu-teacher-lessons");
  const teacherSection = node("div", "uu-teacher-section");
  teacherSection.append(teacherHeading, teacher);
  el.append(heading, course, teacherSection);
  const rows = new Map();  // lesson id -> its row's elements

  function rowsOf(list) {
    return (list || []).map((r) => {
      const id = String(r.id);
      let row = rows.get(id);
      if (!row) {
        row = makeRow(model, id);
        rows.set(id, row);
      }
      fill(row, r);
      return row.el;
    });
  }

  function draw() {
    const labels = model.get("labels") || {};
    heading.textContent = labels.lessons || "";
    teacherHeading.textContent = labels.teacher || "";
    const problems = (model.get("problems") || []).map((p) => node("div", "uu-error-box", String(p)));
    place(course, [...rowsOf(model.get("rows")), ...problems]);
    const mine = [...rowsOf(model.get("teacher_rows")), ...(model.get("broken") || []).map(brokenNote)];
    place(teacher, mine);
    teacherSection.hidden = mine.length === 0;
    const shown = new Set([...(model.get("rows") || []), ...(model.get("teacher_rows") || [])].map((r) => String(r.id)));
    for (const id of [...rows.keys()]) if (!shown.has(id)) rows.delete(id);
  }

  draw();
  // one message may change several traits: the list is drawn once, after all of them
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    queueMicrotask(() => { pending = false; draw(); });
  };
  const names = ["rows", "teacher_rows", "broken", "problems", "labels"];
  for (const name of names) model.on(`change:${name}`, schedule);
  return () => { for (const name of names) model.off(`change:${name}`, schedule); };
}

export default { render };
