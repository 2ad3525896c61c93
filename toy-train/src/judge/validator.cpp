// toy-train's input validator for its Kattis problem package (`toy-train package`). It reads
// an input on stdin and exits 42 when it is valid in the canonical format under the original
// limits, exactly what `toy-train validate` accepts, and 43 otherwise, with the reason on
// stderr. The format is the sample grader's: "n m" with 1 <= n <= 5000 and n <= m <= 20000,
// the owners a[0..n) and the chargers r[0..n) each a line of n flags 0 or 1, then m lines
// "u v" of stations in 0..n; at least one charger, no track twice, a track out of every
// station. Every number in plain decimal (no sign, no leading zero), one space between the
// numbers of a line, "\n" line ends, a final newline and nothing after it.
//
// Arguments "subtask K" (a test group's input_validator_flags) also check original subtask
// K's constraint: 1 every track u -> u or u -> u + 1, 2 n <= 15, 3 Arezou owns every station,
// 4 Borzou owns every station, 5 exactly one charger, 6 nothing more.
#include "canonical_reader.h"

#include <cstring>
#include <unordered_set>
#include <vector>

int main(int argc, char **argv) {
    int subtask = 6;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "subtask") == 0 && i + 1 < argc) {
            subtask = std::atoi(argv[++i]);
            if (subtask < 1 || subtask > 6) {
                std::fprintf(stderr, "usage: subtask K, K in 1..=6\n");
                return 1;
            }
        }
    }
    const long n = read_number(1, 5000, ' ');
    const long m = read_number(n, 20000, '\n');
    std::vector<long> owner(n), charger(n);
    for (long i = 0; i < n; ++i) owner[i] = read_number(0, 1, i + 1 == n ? '\n' : ' ');
    long chargers = 0;
    for (long i = 0; i < n; ++i) chargers += charger[i] = read_number(0, 1, i + 1 == n ? '\n' : ' ');
    if (chargers == 0) reject("no charging station");
    std::unordered_set<long> tracks;
    std::vector<char> leaves(n, 0);
    bool line_shaped = true;
    for (long i = 0; i < m; ++i) {
        const long u = read_number(0, n - 1, ' ');
        const long v = read_number(0, n - 1, '\n');
        if (!tracks.insert(u * n + v).second) reject("a track twice");
        leaves[u] = 1;
        line_shaped = line_shaped && (v == u || v == u + 1);
    }
    read_end("expected the end of the file after the last track");
    for (long s = 0; s < n; ++s)
        if (!leaves[s]) reject("a station without a track out of it");
    bool arezou = true, borzou = true;
    for (long s = 0; s < n; ++s) {
        arezou = arezou && owner[s] == 1;
        borzou = borzou && owner[s] == 0;
    }
    const bool holds[7] = {true, line_shaped, n <= 15, arezou, borzou, chargers == 1, true};
    if (!holds[subtask]) {
        std::fprintf(stderr, "invalid: not in subtask %d\n", subtask);
        return 43;
    }
    return 42;
}
