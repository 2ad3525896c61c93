//! A Graphviz DOT picture of a solved railway, for `--dot` and the stress report: who owns
//! each station, which charge, who wins from where, and both winners' strategies.
//!
//! Render it with `dot -Tsvg`. The picture is meant for small railways (tens of stations),
//! where a reader can follow the strategies by eye.

use std::fmt::Write as _;

use crate::game::{Game, Solution};

/// The DOT text of `game` with its `solution`. `O(n + m)` time and output.
///
/// - Arezou's stations are boxes, Borzou's are ellipses; a charging station has a double
///   border and a lightning mark in its label.
/// - The fill says who wins from the station: blue for Arezou, red for Borzou.
/// - Every track is a grey arrow; the track the winner's strategy takes at a station is a
///   thick arrow in the winner's colour (Arezou's strategy on her region, Borzou's on his).
///   The loser's moves are not drawn thick: any of them stays in the winner's region.
#[must_use]
pub(crate) fn render(game: &Game, solution: &Solution) -> String {
    let mut out = String::with_capacity(64 * (game.n() + game.m()) + 256);
    out.push_str("digraph railway {\n");
    out.push_str("  graph [rankdir=LR, label=\"toy-train: blue = Arezou wins, red = Borzou wins; ");
    out.push_str("box = Arezou's station, ellipse = Borzou's, double border = charging; ");
    out.push_str("thick = the winner's strategy\", labelloc=t, fontsize=11];\n");
    out.push_str("  node [style=filled, fontname=\"Helvetica\"];\n");
    for s in game.stations() {
        let shape = if game.arezou(s) { "box" } else { "ellipse" };
        let (fill, who) = if solution.arezou_wins[s as usize] {
            ("\"#cfe2ff\"", "A")
        } else {
            ("\"#f8d0d0\"", "B")
        };
        let charger = game.charging(s);
        let _ = writeln!(
            out,
            "  {s} [label=\"{s}{}\\n{who} wins\", shape={shape}, fillcolor={fill}, peripheries={}];",
            if charger { " \u{26a1}" } else { "" },
            if charger { 2 } else { 1 },
        );
    }
    for s in game.stations() {
        let winner_moves_here = solution.arezou_wins[s as usize] == game.arezou(s);
        let chosen = solution.strategy[s as usize];
        let mut drawn_chosen = false;
        for &t in game.succ(s) {
            // Duplicate tracks are drawn once thick, the rest grey.
            if winner_moves_here && t == chosen && !drawn_chosen {
                drawn_chosen = true;
                let colour = if game.arezou(s) { "\"#1f5fbf\"" } else { "\"#b02a2a\"" };
                let _ = writeln!(out, "  {s} -> {t} [color={colour}, penwidth=3];");
            } else {
                let _ = writeln!(out, "  {s} -> {t} [color=\"#9a9a9a\"];");
            }
        }
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_is_drawn_with_its_strategies() {
        let game = crate::parse(b"2 4\n0 1\n1 0\n0 0\n0 1\n1 0\n1 1\n").unwrap();
        let solution = crate::classic::solve(&game);
        let dot = render(&game, &solution);
        assert!(dot.starts_with("digraph railway {\n") && dot.ends_with("}\n"));
        // Station 0 is Borzou's charger, station 1 Arezou's; Arezou wins from both.
        assert!(dot.contains("  0 [label=\"0 \u{26a1}\\nA wins\", shape=ellipse"));
        assert!(dot.contains("peripheries=2"));
        assert!(dot.contains("  1 [label=\"1\\nA wins\", shape=box"));
        // Arezou's strategy at station 1 is drawn thick; Borzou loses at 0, so no thick move.
        let thick: Vec<&str> = dot.lines().filter(|l| l.contains("penwidth=3")).collect();
        assert_eq!(
            thick,
            [format!("  1 -> {} [color=\"#1f5fbf\", penwidth=3];", solution.strategy[1])]
        );
        assert_eq!(dot.lines().filter(|l| l.contains(" -> ")).count(), 4, "every track drawn");
    }
}
