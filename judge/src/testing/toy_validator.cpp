// The toy problem's input validator (judge::testing::toy): exit 42 for a valid input in the
// canonical format under the original limits, 43 otherwise. "T\n" with 1 <= T <= 10, then T
// lines "a b" with 1 <= a, b <= 9, no two cases equal.
#include <cstdio>
#include <cstdlib>
#include <set>
#include <utility>

namespace {

[[noreturn]] void reject(const char *why) {
    std::fprintf(stderr, "invalid: %s\n", why);
    std::exit(43);
}

// A number in 1..=hi, one digit or two, without a leading zero, then the byte `end`.
int number(int hi, int end) {
    int c = std::getchar(), value = 0, digits = 0;
    for (; c >= '0' && c <= '9'; c = std::getchar(), ++digits) {
        if (digits > 0 && value == 0) reject("a leading zero");
        value = value * 10 + (c - '0');
        if (value > hi) reject("a number out of range");
    }
    if (digits == 0 || value < 1) reject("expected a number in range");
    if (c != end) reject("expected other white space");
    return value;
}

}  // namespace

int main() {
    const int cases = number(10, '\n');
    std::set<std::pair<int, int>> seen;
    for (int k = 0; k < cases; ++k) {
        const int a = number(9, ' ');
        const int b = number(9, '\n');
        if (!seen.insert({a, b}).second) reject("a case twice");
    }
    if (std::getchar() != EOF) reject("something after the last case");
    return 42;
}
