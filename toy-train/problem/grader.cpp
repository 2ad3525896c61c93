// A grader for IOI 2017 "Toy Train", written for this repository (not the contest's): it
// does what the contest's sample grader did, reading a railway in the format of
// statement.md on stdin, calling who_wins (train.h) and printing its answers on one line,
// separated by single spaces. Build: g++ -O2 -std=gnu++17 -o train grader.cpp train.cpp
//
// Its main and its reference to who_wins are weak symbols, so a program with a main of its
// own (one that reads stdin itself) links with this file too and keeps its own main: judges
// that compile every submission with the grader accept both kinds.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "train.h"

std::vector<int> who_wins(std::vector<int> a, std::vector<int> r, std::vector<int> u,
                          std::vector<int> v) __attribute__((weak));

namespace {

int read_int() {
    int x;
    if (std::scanf("%d", &x) != 1) {
        std::fprintf(stderr, "grader: the input ends early or holds something other than a number\n");
        std::exit(1);
    }
    return x;
}

}  // namespace

__attribute__((weak)) int main() {
    int n = read_int(), m = read_int();
    std::vector<int> a(n), r(n), u(m), v(m);
    for (int &x : a) x = read_int();
    for (int &x : r) x = read_int();
    for (int i = 0; i < m; ++i) {
        u[i] = read_int();
        v[i] = read_int();
    }
    std::vector<int> w = who_wins(a, r, u, v);
    for (size_t i = 0; i < w.size(); ++i) std::printf(i == 0 ? "%d" : " %d", w[i]);
    std::printf("\n");
    return 0;
}
