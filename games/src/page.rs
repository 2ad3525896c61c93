//! The web page of `PROBLEM serve`: one HTML file, its script and its style, compiled into
//! the binary so that the page needs nothing from elsewhere.
//!
//! The page asks `POST /api/query` ([`crate::query`]) for the position its state reaches and
//! draws it: the board (a game's [`Notation::board_script`](crate::Notation::board_script)
//! sets `window.drawBoard(answer, page)`, which returns an element; `page` gives `el` and
//! `svg` to make elements, `move(text)` the listed move of that text with its `colour`, and
//! `play(text)`), every legal move with its value (win green, lose red, a probability between
//! them; paler the further the end), a chart of the value so far, and the controls: the side
//! a person plays against perfect play (or watching both), undo, hint, another game or input.
//! The state (input, game, moves, side, mode, chance's seed) lives in the URL fragment, so a
//! position can be shared, reloaded, and opened by a test without a click; the browser's back
//! button undoes.

/// The page.
pub const HTML: &str = include_str!("page/index.html");
/// Its script.
pub const SCRIPT: &str = include_str!("page/page.js");
/// Its style.
pub const STYLE: &str = include_str!("page/page.css");
