// hero-battle's input validator for its Kattis problem package (`hero-battle package`).
// It reads an input on stdin and exits 42 when it is valid in the canonical format under the
// original limits, exactly what `hero-battle validate` accepts, and 43 otherwise, with the
// reason on stderr: a line "T" with 1 <= T <= 40, then T lines of twelve numbers in 1..=99,
// each number in plain decimal (no sign, no leading zero), one space between the numbers of
// a line, "\n" line ends, a final newline and nothing after it.
#include "canonical_reader.h"

int main() {
    const long cases = read_number(1, 40, '\n');
    for (long k = 0; k < cases; ++k)
        for (int field = 0; field < 12; ++field) read_number(1, 99, field == 11 ? '\n' : ' ');
    read_end("expected the end of the file after the last case");
    return 42;
}
