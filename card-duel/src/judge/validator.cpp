// card-duel's input validator for its Kattis problem package (`card-duel package`). It reads
// an input on stdin and exits 42 when it is valid in the canonical format under the original
// limits, exactly what `card-duel validate` accepts, and 43 otherwise, with the reason on
// stderr: a line "T O" with 1 <= T <= 351493 and 3 <= O <= 5, then T cases of four lines:
// "E S" (1..=20 each), the teacher's board "c a_1 ... a_c" and E's board "p e_1 ... e_p"
// (at most 4 minions of HP 1 or 2, in any order), and the hands "h_t h_e" (0..=3 each). Every
// number in plain decimal (no sign, no leading zero), one space between the numbers of a
// line, "\n" line ends, a final newline and nothing after it.
#include "canonical_reader.h"

namespace {

// A board line: the minion count, then each minion's HP.
void read_board() {
    int c = std::getchar();
    std::ungetc(c, stdin);
    const long minions = read_number(0, 4, c == '0' ? '\n' : ' ');
    for (long k = 0; k < minions; ++k) read_number(1, 2, k + 1 == minions ? '\n' : ' ');
}

}  // namespace

int main() {
    const long cases = read_number(1, 351493, ' ');
    read_number(3, 5, '\n');
    for (long k = 0; k < cases; ++k) {
        read_number(1, 20, ' ');
        read_number(1, 20, '\n');
        read_board();
        read_board();
        read_number(0, 3, ' ');
        read_number(0, 3, '\n');
    }
    read_end("expected the end of the file after the last case");
    return 42;
}
