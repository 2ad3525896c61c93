// hero-battle's input validator for its Kattis problem package (`hero-battle package`).
// It reads an input on stdin and exits 42 when it is valid in the canonical format under the
// original limits, exactly what `hero-battle validate` accepts, and 43 otherwise, with the
// reason on stderr: a line "T" with 1 <= T <= 40, then T lines of twelve numbers in 1..=99,
// each number in plain decimal (no sign, no leading zero), one space between the numbers of
// a line, "\n" line ends, a final newline and nothing after it.
#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void reject(const char *why, long line) {
    std::fprintf(stderr, "invalid: line %ld: %s\n", line, why);
    std::exit(43);
}

// Reads a number in plain decimal within [lo, hi], then the byte `end` (a space or "\n").
// Nine digits at most: every bound of the format is far below that.
long read_number(long lo, long hi, int end, long line) {
    long value = 0;
    int digits = 0;
    int c = std::getchar();
    for (; c >= '0' && c <= '9'; c = std::getchar()) {
        if (digits > 0 && value == 0) reject("a number with a leading zero", line);
        if (++digits > 9) reject("a number out of range", line);
        value = value * 10 + (c - '0');
    }
    if (digits == 0) reject("expected a number in plain decimal", line);
    if (value < lo || value > hi) reject("a number out of range", line);
    if (c != end) reject(end == ' ' ? "expected one space after a number" : "expected a newline", line);
    return value;
}

}  // namespace

int main() {
    const long cases = read_number(1, 40, '\n', 1);
    for (long k = 0; k < cases; ++k)
        for (int field = 0; field < 12; ++field) read_number(1, 99, field == 11 ? '\n' : ' ', k + 2);
    if (std::getchar() != EOF) reject("expected the end of the file after the last case", cases + 2);
    return 42;
}
