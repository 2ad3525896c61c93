// card-duel's answer validator (a 2025-09 package's answer_validators/answer.cpp): called
// `answer INPUT < ANSWER`, it exits 42 when the answer is one line a case of the input, each
// a probability with nine decimals, "0.ddddddddd" or "1.000000000", ended by "\n", and
// nothing after the last: what `card-duel` writes. Otherwise 43, with the line and the
// reason on stderr; 1 when the input cannot be read.
#include "canonical_reader.h"

int main(int argc, char **argv) {
    long cases = read_case_count(argc, argv);
    const char *want = "a probability with nine decimals (0.ddddddddd or 1.000000000)";
    for (long k = 0; k < cases; ++k) {
        int whole = std::getchar();
        if (whole != '0' && whole != '1') reject(want);
        if (std::getchar() != '.') reject(want);
        for (int d = 0; d < 9; ++d) {
            int c = std::getchar();
            if (c < '0' || c > '9' || (whole == '1' && c != '0')) reject(want);
        }
        if (std::getchar() != '\n') reject("expected a newline after nine decimals");
        ++canonical::line;
    }
    read_end("text after the last case's line");
    return 42;
}
