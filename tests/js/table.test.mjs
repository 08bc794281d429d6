// table.js's pure functions on their own, under Node's test runner (`node --test`), against messages that
// Python made and checked against their types (tests/test_table_js.py writes them to UU_TABLE_FIXTURES).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { FEW_MOVES, counted, fullCard, gestureStep, newTable, statusHelp, tableFrom, word } from "../../uu/table/table.js";

const fixtures = JSON.parse(readFileSync(process.env.UU_TABLE_FIXTURES, "utf8"));

test("the table rebuilt from the parts the widget sends is the observation Python made", () => {
  assert.ok(fixtures.tables.length > 20);
  for (const t of fixtures.tables) {
    const drawn = tableFrom(t.seats, t.middle, t.state, t.log_new, fixtures.facts);
    delete drawn.log;
    assert.deepEqual(drawn, t.expected);
  }
});

test("a lean card gets its facts back, a whole one stays as it is, a hidden one is a back", () => {
  const facts = fixtures.facts;
  const name = Object.keys(facts).find((n) => n);
  const lean = { id: "c1", key: `card:hand:0:${name}`, name, zone: "hand", owner: 0 };
  assert.deepEqual(fullCard(facts, lean), { ...facts[name], ...lean });
  const whole = { ...lean, type: "magic", text: "other words" };
  assert.equal(fullCard(facts, whole), whole);
  assert.equal(fullCard(facts, { id: "h1-0", name: null }).icon, "back");
  assert.equal(fullCard(facts, null), null);
});

test("every gesture chooses its own action, and each click lights what Python says comes next", () => {
  let checked = 0;
  for (const { actions, steps } of fixtures.gestures) {
    for (const a of actions) {
      assert.equal(gestureStep(actions, a.gesture).chosen, a.id);
    }
    for (const { clicks, next, chosen } of steps) {
      const step = gestureStep(actions, clicks);
      assert.deepEqual([...step.next].sort(), [...next].sort());
      assert.equal(step.chosen, chosen);
      checked += 1;
    }
  }
  assert.ok(checked > 50);
});

test("words are filled in and counted words take the language's form", () => {
  for (const { lang, labels } of fixtures.labels) {
    assert.equal(word(labels, "turn_n", { number: 3 }).includes("3"), true);
    assert.equal(word(labels, "no-such-key"), "no-such-key");
    assert.equal(counted(labels, 1, "cards"), labels["cards.one"].replace("{n}", "1"));
    assert.equal(counted(labels, 2, "cards"), labels["cards.other"].replace("{n}", "2"));
    const zero = lang === "fr" ? labels["cards.one"] : labels["cards.other"];  // "0 carte", "0 cards", "0 Karten"
    assert.equal(counted(labels, 0, "cards"), zero.replace("{n}", "0"));
  }
});

test("a begun gesture names the moves it can still become only when they are few; else says how to go on", () => {
  const labels = { lit_help: "Lit cards and places can be chosen." };
  const moves = (n) => Array.from({ length: n }, (_, i) => ({ id: i, description: `move ${i}` }));
  assert.equal(statusHelp(labels, moves(2)), " move 0; move 1.");
  assert.equal(statusHelp(labels, moves(FEW_MOVES)).split(";").length, FEW_MOVES);
  // Two-For-One: some 80 ways on; the prompt once listed them all and filled the screen
  assert.equal(statusHelp(labels, moves(80)), " Lit cards and places can be chosen.");
  assert.equal(statusHelp(labels, []), " Lit cards and places can be chosen.");
});

test("a new table's steps are played back, join the playback under way, or the table is drawn at once", () => {
  const steps = [{ lines: ["Bramble plays a card"], moved: [] }];
  const idle = { drawn: 7, playing: null, skipping: false, paced: true };
  assert.equal(newTable({ from: 7, steps }, idle), "play");
  assert.equal(newTable({ from: 6, steps }, idle), "draw");             // not from the table on show
  assert.equal(newTable({ from: 7, steps: [] }, idle), "draw");         // nothing to play back
  assert.equal(newTable({ from: 7, steps }, { ...idle, paced: false }), "draw");
  assert.equal(newTable({ from: 7, steps }, { ...idle, skipping: true }), "draw");
  assert.equal(newTable({ from: 7, steps }, { ...idle, drawn: null }), "draw");
  // a batch sent while slow bots still think goes on from where the playback under way leads
  const playing = { skip: false, to: 9 };
  assert.equal(newTable({ from: 9, steps }, { ...idle, playing }), "join");
  assert.equal(newTable({ from: 8, steps }, { ...idle, playing }), "draw");
  assert.equal(newTable({ from: 9, steps }, { ...idle, playing: { ...playing, skip: true } }), "draw");
  assert.equal(newTable({}, { ...idle, playing }), "draw");
});
