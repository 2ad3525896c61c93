// hero-battle's answer validator (a 2025-09 package's answer_validators/answer.cpp): called
// `answer_validator INPUT < ANSWER`, it exits 42 when the answer is one line a case of the
// input, each exactly "Alice wins", "Bob wins" or "It depends" and ended by "\n", and nothing
// after the last: what `hero-battle` writes. Otherwise 43, with the line and the reason on
// stderr; 1 when the input cannot be read.
#include <cstdio>
#include <cstdlib>
#include <cstring>

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
    static const char *const verdicts[] = {"Alice wins", "Bob wins", "It depends"};
    for (long line = 1; line <= cases; ++line) {
        char text[16];
        size_t length = 0;
        int c;
        while ((c = std::getchar()) != EOF && c != '\n') {
            if (length + 1 >= sizeof text) reject(line, "not a verdict");
            text[length++] = static_cast<char>(c);
        }
        if (c == EOF) reject(line, "expected a verdict line ended by a newline");
        text[length] = '\0';
        bool known = std::strlen(text) == length;
        known = known && (std::strcmp(text, verdicts[0]) == 0 ||
                          std::strcmp(text, verdicts[1]) == 0 ||
                          std::strcmp(text, verdicts[2]) == 0);
        if (!known) reject(line, "expected \"Alice wins\", \"Bob wins\" or \"It depends\"");
    }
    if (std::getchar() != EOF) reject(cases + 1, "text after the last case's line");
    return 42;
}
