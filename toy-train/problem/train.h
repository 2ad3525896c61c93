// IOI 2017 "Toy Train": the function a contestant writes in train.cpp. a[i] = 1 if Arezou
// owns station i, r[i] = 1 if station i charges, track j leads from u[j] to v[j]; returns
// w with w[i] = 1 if Arezou wins from station i. Compile with the grader:
// g++ -O2 -std=gnu++17 -o train grader.cpp train.cpp
#pragma once

#include <vector>

std::vector<int> who_wins(std::vector<int> a, std::vector<int> r, std::vector<int> u,
                          std::vector<int> v);
