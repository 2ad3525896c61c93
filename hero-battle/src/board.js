// hero-battle's board in the page of `hero-battle serve` (games::page): the four heroes with
// their hit points, the damage each deals, and the player to move.
"use strict";

window.drawBoard = function (answer, page) {
  const { el } = page;
  const board = answer.board;
  const top = Math.max(1, board.alice.hp[0], board.alice.hp[1], board.bob.hp[0], board.bob.hp[1]);
  const side = (name, letter, enemy, heroes) => {
    const moving = board.mover === name;
    const cards = [0, 1].map((i) => {
      const hp = heroes.hp[i];
      const damage = el("table", { class: "damage" },
        el("tr", {}, el("th", {}, "hits"), el("th", {}, `${enemy}1`), el("th", {}, `${enemy}2`)),
        el("tr", {}, el("th", {}, `${letter}${i + 1}`),
          el("td", {}, String(heroes.damage[i][0])), el("td", {}, String(heroes.damage[i][1]))));
      return el("div", { class: `hero${hp === 0 ? " dead" : ""}`, "data-hero": `${letter}${i + 1}` },
        el("strong", {}, `${letter}${i + 1}`), ` ${hp} HP`,
        el("div", { class: "bar", role: "meter", "aria-valuenow": hp, "aria-valuemin": 0, "aria-valuemax": top },
          el("span", { style: `width: ${(100 * hp) / top}%` })),
        damage);
    });
    return el("section", { class: `panel${moving ? " mover" : ""}`, "data-side": name },
      el("h2", {}, `${name}${moving ? " (to move)" : ""}`),
      el("div", { class: "heroes" }, ...cards));
  };
  return el("div", { class: "battle" },
    side("Alice", "A", "B", board.alice),
    el("p", {}, "Each move: every living hero of the mover hits one living enemy hero, written ", el("code", {}, "A1->B2"), " (the protocol's line lists the targets of hero 1 and hero 2; 0 for a dead hero)."),
    side("Bob", "B", "A", board.bob));
};
