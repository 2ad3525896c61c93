// card-duel's answer validator (a 2025-09 package's answer_validators/answer.cpp): called
// `answer_validator INPUT < ANSWER`, it exits 42 when the answer is one line a case of the
// input, each a probability with nine decimals, "0.ddddddddd" or "1.000000000", ended by
// "\n", and nothing after the last: what `card-duel` writes. Otherwise 43, with the line and
// the reason on stderr; 1 when the input cannot be read.
#include <cstdio>
#include <cstdlib>

[[noreturn]] static void reject(long line, const char *why) {
    std::fprintf(stderr, "invalid answer: line %ld: %s\n", line, why);
    std::exit(43);
}

int main(int argc, char **argv) {
    FILE *input = argc > 1 ? std::fopen(argv[1], "r") : nullptr;
    long cases = 0;
    if (input == nullptr || std::fscanf(input, "%ld", &cases) != 1 || cases < 0) {
        std::fprintf(stderr, "cannot read the number of cases from the input (argument 1)\n");
        return 1;
    }
    const char *want = "a probability with nine decimals (0.ddddddddd or 1.000000000)";
    for (long line = 1; line <= cases; ++line) {
        int whole = std::getchar();
        if (whole != '0' && whole != '1') reject(line, want);
        if (std::getchar() != '.') reject(line, want);
        for (int k = 0; k < 9; ++k) {
            int c = std::getchar();
            if (c < '0' || c > '9' || (whole == '1' && c != '0')) reject(line, want);
        }
        if (std::getchar() != '\n') reject(line, "expected a newline after nine decimals");
    }
    if (std::getchar() != EOF) reject(cases + 1, "text after the last case's line");
    return 42;
}
