// hero-battle's answer validator (a 2025-09 package's answer_validators/answer.cpp): called
// `answer INPUT < ANSWER`, it exits 42 when the answer is one line a case of the input, each
// exactly "Alice wins", "Bob wins" or "It depends" and ended by "\n", and nothing after the
// last: what `hero-battle` writes. Otherwise 43, with the line and the reason on stderr; 1
// when the input cannot be read.
#include <cstring>
#include "canonical_reader.h"

int main(int argc, char **argv) {
    long cases = read_case_count(argc, argv);
    static const char *const verdicts[] = {"Alice wins", "Bob wins", "It depends"};
    for (long k = 0; k < cases; ++k) {
        char text[16];
        size_t length = 0;
        int c;
        while ((c = std::getchar()) != EOF && c != '\n') {
            if (length + 1 >= sizeof text) reject("not a verdict");
            text[length++] = static_cast<char>(c);
        }
        if (c == EOF) reject("expected a verdict line ended by a newline");
        text[length] = '\0';
        bool known = std::strlen(text) == length;
        known = known && (std::strcmp(text, verdicts[0]) == 0 ||
                          std::strcmp(text, verdicts[1]) == 0 ||
                          std::strcmp(text, verdicts[2]) == 0);
        if (!known) reject("expected \"Alice wins\", \"Bob wins\" or \"It depends\"");
        ++canonical::line;
    }
    read_end("text after the last case's line");
    return 42;
}
