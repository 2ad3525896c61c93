//! `stress --exhaustive` promises "right on every input" on the strength of our answers, so
//! every railway it enumerates up to 3 stations is solved here three ways: the judge's answer
//! (the default solver, its certificate verified), the classic solver, and the brute force
//! that plays the rules literally.

use judge::{Limits, Problem};
use toy_train::judge::Judge;
use toy_train::{brute, classic};

#[test]
fn every_railway_up_to_three_stations_gets_the_rules_answer() {
    for limits in [Limits::Original, Limits::Extended] {
        let total = Judge.exhaustive_len(3, limits).expect("3 is a bound");
        let mut mixed = 0;
        for index in 0..total {
            let railway = Judge.exhaustive(3, index, limits).expect("an index below the length");
            let game = railway.to_game().expect("enumerated railways are games");
            let ours = Judge.solve(&railway);
            assert_eq!(ours, brute::winners(&game).expect("3 stations"), "{railway:?}");
            assert_eq!(ours, classic::solve(&game).arezou_wins, "{railway:?}");
            mixed += usize::from(ours.contains(&true) && ours.contains(&false));
        }
        assert!(mixed > 1000, "{mixed} railways where both players win somewhere");
    }
}
