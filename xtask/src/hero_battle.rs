//! `cargo xtask gen hero-battle` and `cargo xtask bench hero-battle`.

use engine::rng::SplitMix64;
use games::Game;
use std::time::Duration;

use hero_battle::generate::{Family, cases, to_input};

use crate::TaskResult;
use crate::measure::{
    BenchArgs, Contender, Sample, build_release, compare, peer, print_ratio, write_input,
};
use crate::play::{PlayRows, walk};

/// Generator options for hero-battle.
#[derive(Clone, Debug, clap::Args)]
pub struct GenArgs {
    /// Which kind of cases.
    #[arg(value_enum)]
    pub family: Family,
    /// Number of cases.
    #[arg(long, default_value_t = 40)]
    pub count: usize,
    /// Generator seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Writes a generated hero-battle input to stdout.
pub fn gen_to_stdout(args: &GenArgs) -> TaskResult {
    print!("{}", to_input(&cases(args.family, args.count, args.seed)));
    Ok(())
}

/// One benchmark input.
struct BenchInput {
    /// File name under `target/bench/`.
    file: &'static str,
    family: Family,
    cases: usize,
    /// Kept by `--quick`; also the inputs the peer is timed on (it takes minutes on the
    /// others).
    quick: bool,
}

const INPUTS: [BenchInput; 4] = [
    BenchInput { file: "hero-hard-40.in", family: Family::Hard, cases: 40, quick: true },
    BenchInput { file: "hero-random-20000.in", family: Family::Random, cases: 20_000, quick: true },
    BenchInput {
        file: "hero-random-1000000.in",
        family: Family::Random,
        cases: 1_000_000,
        quick: false,
    },
    BenchInput { file: "hero-hard-2000.in", family: Family::Hard, cases: 2_000, quick: false },
];

/// Times ours (one and two threads, and their ratio) against `hero-battle-seed` on each input.
pub fn bench(args: &BenchArgs) -> TaskResult {
    let ours = build_release("hero-battle")?;
    let peer = peer(args, "hero-battle-seed");
    let mut rows = Vec::new();
    for BenchInput { file, family, cases: count, quick } in INPUTS {
        if args.quick && !quick {
            continue;
        }
        let input = write_input(file, to_input(&cases(family, count, 2017)).as_bytes())?;
        let mut contenders = Vec::new();
        let with_peer = peer.is_some() && quick;
        if let Some(peer) = peer.as_ref().filter(|_| quick) {
            contenders.push(Contender::new("hero-battle-seed", peer, &[]));
        }
        contenders.push(Contender::new("ours, 1 thread", &ours, &["--threads", "1"]));
        contenders.push(Contender::new("ours, 2 threads", &ours, &["--threads", "2"]));
        let title = format!("hero-battle: {count} {family:?} cases");
        let meds = compare(&title, &input, &contenders, args.runs)?;
        let n = meds.len();
        print_ratio("1 to 2 threads", meds[n - 2], meds[n - 1]);
        let what = match family {
            Family::Hard => "hard cases (hit points 90..99, damage 1..3)",
            _ => "random cases (all numbers 1..99)",
        };
        rows.push(Row {
            input: format!("{} {what}", crate::measure::thousands(count as u64)),
            editorial: with_peer.then(|| meds[0]),
            one: meds[n - 2],
            two: meds[n - 1],
        });
    }
    println!("\n{}", crate::measure::machine_line(&["-j 1", "-j 2"]));
    println!("\n| input | editorial | ours, -j 1 | ours, -j 2 |");
    println!("|---|---|---|---|");
    for row in rows {
        // Wall time, then CPU time (what waiting for a core on a loaded machine leaves out),
        // each with the editorial's over ours.
        let cell = |s: Sample, base: Option<Sample>| {
            let ratio = |of: fn(Sample) -> Duration| {
                base.map_or_else(String::new, |b| {
                    format!(" ({:.0}x)", of(b).as_secs_f64() / of(s).as_secs_f64().max(1e-9))
                })
            };
            format!(
                "{}{}, CPU {}{}, {:.1} MB",
                duration(s.wall),
                ratio(|s| s.wall),
                duration(s.cpu),
                ratio(|s| s.cpu),
                s.max_rss_kib as f64 / 1024.0
            )
        };
        let editorial = row.editorial.map_or_else(|| "-".to_owned(), |e| cell(e, None));
        println!(
            "| {} | {editorial} | {} | {} |",
            row.input,
            cell(row.one, row.editorial),
            cell(row.two, row.editorial)
        );
    }
    Ok(())
}

/// One line of the figures table.
struct Row {
    input: String,
    editorial: Option<Sample>,
    one: Sample,
    two: Sample,
}

/// A time for the table: `37.3 ms`, `1.61 s`.
fn duration(time: Duration) -> String {
    let seconds = time.as_secs_f64();
    if seconds < 1.0 { format!("{:.1} ms", seconds * 1e3) } else { format!("{seconds:.2} s") }
}

/// `cargo xtask bench play`'s rows for hero-battle: random cases, hard cases and the longest games.
pub(crate) fn play_rows(positions: usize, seed: u64) -> Result<PlayRows, String> {
    let mut rng = SplitMix64::new(seed);
    let mut made = PlayRows::default();
    // hero-battle: random cases (every number in 1..=99) and hard ones (hit points 90..=99,
    // damage 1..=3), along random games.
    for (name, hp, damage) in [
        ("hero-battle, random cases", (1, 99), (1, 99)),
        ("hero-battle, hard cases", (90, 99), (1, 3)),
    ] {
        let mut text = String::from("40\n");
        for _ in 0..40 {
            let numbers: Vec<String> = (0..12)
                .map(|i| {
                    let (lo, hi) = if i < 4 { hp } else { damage };
                    rng.range(lo, hi).to_string()
                })
                .collect();
            text.push_str(&(numbers.join(" ") + "\n"));
        }
        let mut game = hero_battle::position::HeroGame::new();
        let starts = game.starts(&game.read(text.as_bytes())?);
        let row = walk(name, "hero-battle", (&mut game, &text), &starts, positions, &mut rng);
        made.rows.push(row);
    }
    // hero-battle's longest games, the slowest start the adversarial searches know: every
    // hit point 99, every damage 1 (remoteness 295). Its own generator, so that the rows
    // below time the same positions with it or without it.
    let mut game = hero_battle::position::HeroGame::new();
    let text = "1\n99 99 99 99 1 1 1 1 1 1 1 1\n";
    let starts = game.starts(&game.read(text.as_bytes())?);
    let mut longest = SplitMix64::new(seed ^ 0x99);
    let name = "hero-battle, the longest games (every number 99, damage 1)";
    let row = walk(name, "hero-battle", (&mut game, text), &starts, positions, &mut longest);
    made.rows.push(row);
    Ok(made)
}
