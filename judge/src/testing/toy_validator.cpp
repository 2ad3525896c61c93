// The toy problem's input validator (judge::testing::toy): exit 42 for a valid input in the
// canonical format under the original limits, 43 otherwise. "T\n" with 1 <= T <= 10, then T
// lines "a b" with 1 <= a, b <= 9, no two cases equal.
#include "canonical_reader.h"

#include <set>
#include <utility>

int main() {
    const long cases = read_number(1, 10, '\n');
    std::set<std::pair<long, long>> seen;
    for (long k = 0; k < cases; ++k) {
        const long a = read_number(1, 9, ' ');
        const long b = read_number(1, 9, '\n');
        if (!seen.insert({a, b}).second) reject("a case twice");
    }
    read_end("something after the last case");
    return 42;
}
