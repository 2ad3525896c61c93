//! The documents' examples (`tests::examples`): each problem crate runs those of its binary
//! (its `tests/cli.rs`, where cargo builds the binary fresh); this checks that every marked
//! example is one of those, so that none goes unchecked.

#[test]
fn every_example_runs_exactly_one_problem_binary() {
    let problems = tests::registry::problem_names();
    let examples = tests::examples::examples();
    for example in &examples {
        let runs: Vec<&String> = problems.iter().filter(|p| example.runs(p)).collect();
        assert_eq!(runs.len(), 1, "{}: runs {runs:?}, not one problem binary", example.place());
    }
    for problem in &problems {
        let count = examples.iter().filter(|e| e.runs(problem)).count();
        assert!(count >= 2, "{problem}: only {count} marked examples in the documents");
    }
}
