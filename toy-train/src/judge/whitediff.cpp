// CMS's white-diff, as IOI 2017 judged toy-train, as a Kattis output validator (toy-train's
// problem package: output_validators/whitediff). Called as Kattis calls a validator,
//   whitediff judge_in judge_ans feedback_dir < team_output,
// it exits 42 when the output matches the answer and 43 when not, saying where in
// feedback_dir/judgemessage.txt. The rule, CMS's: both texts are read line by line (lines end
// at "\n"); two lines match when they are equal once every run of white space (space, \t,
// \n, \v, \f, \r) is one space and white space at either end is gone; once one text ends,
// each remaining line of the other must be blank.
#include <cstdio>
#include <string>
#include <vector>

namespace {

bool white(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string read_all(std::FILE *file) {
    std::string text;
    char buffer[1 << 16];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
    return text;
}

// The lines of `text`, each with its white space canonicalised.
std::vector<std::string> lines(const std::string &text) {
    std::vector<std::string> out;
    size_t start = 0;
    while (start < text.size()) {
        size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string canonical;
        bool gap = false;
        for (size_t i = start; i < end; ++i) {
            if (white(text[i])) {
                gap = !canonical.empty();
            } else {
                if (gap) canonical += ' ';
                gap = false;
                canonical += text[i];
            }
        }
        out.push_back(canonical);
        start = end + 1;
    }
    return out;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 4) {
        std::fprintf(stderr, "usage: %s judge_in judge_ans feedback_dir < team_output\n", argv[0]);
        return 1;
    }
    std::FILE *answer_file = std::fopen(argv[2], "rb");
    if (!answer_file) {
        std::fprintf(stderr, "cannot open %s\n", argv[2]);
        return 1;
    }
    const std::vector<std::string> answer = lines(read_all(answer_file));
    std::fclose(answer_file);
    const std::vector<std::string> output = lines(read_all(stdin));
    const size_t count = answer.size() > output.size() ? answer.size() : output.size();
    for (size_t i = 0; i < count; ++i) {
        const std::string &want = i < answer.size() ? answer[i] : std::string();
        const std::string &got = i < output.size() ? output[i] : std::string();
        if (want != got) {
            const std::string path = std::string(argv[3]) + "/judgemessage.txt";
            if (std::FILE *message = std::fopen(path.c_str(), "w")) {
                std::fprintf(message, "white-diff: line %zu differs from the answer's\n", i + 1);
                std::fclose(message);
            }
            return 43;
        }
    }
    return 42;
}
