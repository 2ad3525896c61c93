// card-duel's board in the page of `card-duel serve` (games::page): both players' hit
// points, hands and minions (a faded one cannot attack this turn), and the turn so far.
"use strict";

window.drawBoard = function (answer, page) {
  const { el } = page;
  const b = answer.board;
  const player = (i) => {
    const p = b.players[i];
    const name = i === 0 ? "E" : "the teacher";
    const moving = b.mover === name;
    const minion = (hp, spent) => el("span", { class: `minion${spent ? " spent" : ""}`, title: `${hp} HP${spent ? ", cannot attack this turn" : ""}` }, String(hp));
    return el("section", { class: `panel${moving ? " mover" : ""}`, "data-player": name },
      el("h2", {}, `${name}${moving ? " (to move)" : ""}`),
      el("p", {}, el("strong", {}, `${p.hp} HP`), ` · ${p.hand} card${p.hand === 1 ? "" : "s"} in hand`),
      el("div", { class: "minions" }, ...p.ready.map((hp) => minion(hp, false)), ...p.spent.map((hp) => minion(hp, true))));
  };
  const turn = `${b.mover} moves: ${b.used} of ${b.ops} hero powers and plays used this turn` +
    (b.pings > 0 ? `; ${b.pings} ping${b.pings === 1 ? "" : "s"} of the card to come` : "");
  return el("div", { class: "duel" }, player(1), el("p", {}, turn), player(0));
};
