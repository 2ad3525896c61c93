// A right toy-train player in C++, written from the statement's rules alone: it solves the
// railway as a Buchi game (Arezou wins where she can pass a charging station infinitely
// often) by the classic rounds of attractors, keeping a positional strategy for each side,
// and plays it. A positional winning strategy wins the statement's game too: every play
// that follows it closes a cycle of the strategy's graph, which holds a charging station in
// Arezou's region and none in Borzou's. O(n (n + m)) a railway, solved once per input.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using std::vector;

struct Railway {
    int n = 0;
    vector<int> owner, charger;  // owner 1: Arezou's station.
    vector<vector<int>> out, in;
};

// The stations from which `side` forces the train into `target` within `alive` (the rest
// of the graph is out of play), with the move each of its stations takes to get there;
// `move` is written only for the attracted stations of `side`.
static vector<char> attractor(const Railway &r, const vector<char> &alive,
                              const vector<char> &target, int side, vector<int> &move) {
    vector<char> in(r.n, 0);
    vector<int> left(r.n, 0), queue;
    for (int v = 0; v < r.n; ++v) {
        if (!alive[v]) continue;
        for (int w : r.out[v]) left[v] += alive[w];
        if (target[v]) in[v] = 1, queue.push_back(v);
    }
    for (size_t k = 0; k < queue.size(); ++k) {
        int w = queue[k];
        for (int v : r.in[w]) {
            if (!alive[v] || in[v]) continue;
            if (r.owner[v] == side) {
                in[v] = 1, move[v] = w, queue.push_back(v);
            } else if (--left[v] == 0) {
                in[v] = 1, queue.push_back(v);
            }
        }
    }
    return in;
}

// Each station's move: Arezou's winning strategy in her region, Borzou's in his.
static vector<int> solve(const Railway &r, vector<char> &arezou_wins) {
    vector<int> move(r.n, -1);
    vector<char> alive(r.n, 1);
    for (;;) {
        vector<char> chargers(r.n, 0);
        for (int v = 0; v < r.n; ++v) chargers[v] = alive[v] && r.charger[v];
        vector<int> to_charger(r.n, -1);
        vector<char> reach = attractor(r, alive, chargers, 1, to_charger);
        vector<char> escape(r.n, 0);
        bool any = false;
        for (int v = 0; v < r.n; ++v) escape[v] = alive[v] && !reach[v], any |= escape[v];
        if (!any) {
            // Arezou wins every station left: toward a charger, and from one anywhere left.
            for (int v = 0; v < r.n; ++v) {
                if (!alive[v] || r.owner[v] != 1) continue;
                move[v] = to_charger[v];
                if (r.charger[v] || move[v] < 0)
                    for (int w : r.out[v])
                        if (alive[w]) move[v] = w;
            }
            arezou_wins = alive;
            return move;
        }
        // Borzou keeps the train where Arezou cannot force a charger: stay there.
        for (int v = 0; v < r.n; ++v)
            if (escape[v] && r.owner[v] == 0)
                for (int w : r.out[v])
                    if (escape[w]) move[v] = w;
        vector<int> to_escape(r.n, -1);
        vector<char> lost = attractor(r, alive, escape, 0, to_escape);
        for (int v = 0; v < r.n; ++v) {
            if (!lost[v]) continue;
            if (!escape[v] && r.owner[v] == 0) move[v] = to_escape[v];
            alive[v] = 0;
        }
    }
}

static bool read_line(std::string &line) {
    line.clear();
    int c;
    while ((c = getchar()) != EOF && c != '\n') line += (char)c;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return c != EOF || !line.empty();
}

int main() {
    std::string line, last;
    if (!read_line(line)) return 1;
    int games = atoi(line.c_str());
    Railway r;
    vector<int> move;
    vector<char> arezou_wins;
    for (int g = 0; g < games; ++g) {
        // The railway, sent again each game: solved when it differs from the last one.
        std::string text;
        int n, m;
        if (!read_line(line) || sscanf(line.c_str(), "%d %d", &n, &m) != 2) return 1;
        text = line + "\n";
        std::string owners, chargers;
        if (!read_line(owners) || !read_line(chargers)) return 1;
        text += owners + "\n" + chargers + "\n";
        vector<std::pair<int, int>> tracks(m);
        for (auto &t : tracks) {
            if (!read_line(line) || sscanf(line.c_str(), "%d %d", &t.first, &t.second) != 2)
                return 1;
            text += line + "\n";
        }
        if (text != last) {
            last = text;
            r = Railway();
            r.n = n, r.owner.resize(n), r.charger.resize(n), r.out.resize(n), r.in.resize(n);
            const char *p = owners.c_str(), *q = chargers.c_str();
            for (int v = 0; v < n; ++v) {
                r.owner[v] = (int)strtol(p, (char **)&p, 10);
                r.charger[v] = (int)strtol(q, (char **)&q, 10);
            }
            for (auto [u, v] : tracks) r.out[u].push_back(v), r.in[v].push_back(u);
            move = solve(r, arezou_wins);
        }
        if (!read_line(line)) return 1;
        int at = atoi(line.c_str());
        if (!read_line(line)) return 1;
        int me = line == "Arezou" ? 1 : 0;
        vector<char> passed(n, 0);
        passed[at] = 1;
        for (;;) {
            int next;
            if (r.owner[at] == me) {
                next = move[at];
                printf("%d\n", next);
                fflush(stdout);
            } else {
                if (!read_line(line)) return 1;
                if (line == "win" || line == "lose") break;
                next = atoi(line.c_str());
            }
            if (passed[next]) {
                if (!read_line(line)) return 1;
                break;
            }
            passed[next] = 1, at = next;
        }
    }
    return 0;
}
