// The canonical format's reader, shared by every problem's input and answer validators: a
// validator's line `#include "canonical_reader.h"` is replaced by this text when a package is
// written (judge::package::validator_source), so the package's validator stands alone.
// A number is plain decimal (no sign, no leading zero, at most nine digits: every bound of
// the formats is far below that), followed by exactly the byte its place wants: one space
// between the numbers of a line, "\n" at its end. A rejection exits 43 with the line and
// the reason on stderr.
#include <cstdio>
#include <cstdlib>

namespace canonical {

// The line being read, from 1.
long line = 1;

[[noreturn]] void reject(const char *why) {
    std::fprintf(stderr, "invalid: line %ld: %s\n", line, why);
    std::exit(43);
}

// Reads a number within [lo, hi], then the byte `end` (a space or "\n").
long read_number(long lo, long hi, int end) {
    long value = 0;
    int digits = 0;
    int c = std::getchar();
    for (; c >= '0' && c <= '9'; c = std::getchar()) {
        if (digits > 0 && value == 0) reject("a number with a leading zero");
        if (++digits > 9) reject("a number out of range");
        value = value * 10 + (c - '0');
    }
    if (digits == 0) reject("expected a number in plain decimal");
    if (value < lo || value > hi) reject("a number out of range");
    if (c != end) reject(end == ' ' ? "expected one space after a number" : "expected a newline");
    if (end == '\n') ++line;
    return value;
}

// Rejects anything after the last line; `what` names that line.
void read_end(const char *what) {
    if (std::getchar() != EOF) reject(what);
}

// An answer validator's input (argument 1)'s first number, its number of cases; exits 1, a
// judge error, when it cannot be read.
long read_case_count(int argc, char **argv) {
    std::FILE *input = argc > 1 ? std::fopen(argv[1], "r") : nullptr;
    long cases = -1;
    if (input == nullptr || std::fscanf(input, "%ld", &cases) != 1 || cases < 0) {
        std::fprintf(stderr, "cannot read the number of cases of the input (argument 1)\n");
        std::exit(1);
    }
    std::fclose(input);
    return cases;
}

}  // namespace canonical

using canonical::read_case_count;
using canonical::read_end;
using canonical::read_number;
using canonical::reject;
