// A right card-duel player in C++ (E's side), written from the statement's rules alone: an
// expectiminimax over every choice and ping, memoized on the whole state of a turn (hit
// points, hands, each board's 1-HP and 2-HP minions, which of the mover's may still attack,
// the operations left of O, whether one was made), kept across the games of a run since O
// is the run's. Each action's value is E's exact winning probability, so the best is one
// the jury accepts. Memory and time follow the positions reachable from the games played:
// quick on small positions (the first size levels), but a minute a game at 14 hit points,
// where a right player needs the tablebase of every position, as the official solutions
// build it (20 s and 1.3 GB for all of them).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>

struct State {
    int hp[2];      // E is side 0, the teacher side 1.
    int hand[2];
    int one[2];     // 1-HP minions of each side.
    int two[2];     // 2-HP minions of each side.
    int ready1, ready2;  // the mover's minions of 1 and 2 HP that may still attack.
    int mover, ops;      // ops: hero powers and cards left this turn.
    bool acted;          // whether the mover made an operation this turn.
};

static int O;
static std::unordered_map<unsigned long long, double> memo;

// The state in 39 bits: each field below its bound (hit points to 20, O to 20).
static unsigned long long key(const State &s) {
    unsigned long long k = 0;
    int fields[] = {s.hp[0], s.hp[1], s.hand[0], s.hand[1], s.one[0], s.one[1], s.two[0],
                    s.two[1], s.ready1, s.ready2, s.mover, s.ops, s.acted};
    int bounds[] = {32, 32, 4, 4, 8, 8, 8, 8, 8, 8, 2, 32, 2};
    for (int f = 0; f < 13; ++f) k = k * bounds[f] + fields[f];
    return k;
}

static double value(const State &s);

// E's winning probability once side `loser` is dead.
static double dead(int loser) { return loser == 0 ? 0.0 : 1.0; }

// The opponent's turn starts: it draws and its minions may all attack.
static State next_turn(State s) {
    s.mover = 1 - s.mover;
    if (s.hand[s.mover] < 3) ++s.hand[s.mover];
    s.ready1 = s.one[s.mover], s.ready2 = s.two[s.mover];
    s.ops = O, s.acted = false;
    return s;
}

// One ping's target class, as the jury names it: a player, or a minion of a side, HP and
// (for the mover's) whether it may still attack.
enum Target { PLAYER_E, PLAYER_T, MOVER_1_READY, MOVER_1, MOVER_2_READY, MOVER_2, OTHER_1, OTHER_2 };

static int count(const State &s, int t) {
    int m = s.mover, o = 1 - m;
    switch (t) {
    case PLAYER_E: case PLAYER_T: return 1;
    case MOVER_1_READY: return s.ready1;
    case MOVER_1: return s.one[m] - s.ready1;
    case MOVER_2_READY: return s.ready2;
    case MOVER_2: return s.two[m] - s.ready2;
    case OTHER_1: return s.one[o];
    default: return s.two[o];
    }
}

// Applies one ping to target class `t`; returns whether a player died.
static bool ping(State &s, int t) {
    int m = s.mover, o = 1 - m;
    switch (t) {
    case PLAYER_E: return --s.hp[0] <= 0;
    case PLAYER_T: return --s.hp[1] <= 0;
    case MOVER_1_READY: --s.one[m], --s.ready1; break;
    case MOVER_1: --s.one[m]; break;
    case MOVER_2_READY: --s.two[m], ++s.one[m], --s.ready2, ++s.ready1; break;
    case MOVER_2: --s.two[m], ++s.one[m]; break;
    case OTHER_1: --s.one[o]; break;
    default: --s.two[o], ++s.one[o]; break;
    }
    return false;
}

// The value after `left` more pings of a card being played, then the new minion; memoized
// beside the choices (`left` in the key's top bits), as many plays share their pings.
static double pings(const State &s, int left) {
    if (left == 0) {
        State next = s;
        ++next.two[next.mover];
        return value(next);
    }
    unsigned long long k = key(s) | (unsigned long long)left << 40;
    auto found = memo.find(k);
    if (found != memo.end()) return found->second;
    int total = 2 + s.one[0] + s.one[1] + s.two[0] + s.two[1];
    double sum = 0;
    for (int t = PLAYER_E; t <= OTHER_2; ++t) {
        int c = count(s, t);
        if (c == 0) continue;
        State next = s;
        double v = ping(next, t) ? dead(next.hp[0] <= 0 ? 0 : 1) : pings(next, left - 1);
        sum += c * v;
    }
    return memo[k] = sum / total;
}

// The actions legal in `s`, as the jury's lines.
static int actions(const State &s, std::string out[16]) {
    int n = 0, o = 1 - s.mover;
    if (s.ops > 0) out[n++] = "hero";
    for (int h = 1; h <= 2; ++h) {
        if ((h == 1 ? s.ready1 : s.ready2) == 0) continue;
        out[n++] = "face " + std::to_string(h);
        for (int g = 1; g <= 2; ++g)
            if ((g == 1 ? s.one[o] : s.two[o]) > 0)
                out[n++] = "trade " + std::to_string(h) + " " + std::to_string(g);
    }
    if (s.ops > 0 && s.hand[s.mover] > 0 && s.one[s.mover] + s.two[s.mover] < 4)
        out[n++] = "play";
    if (s.acted) out[n++] = "end";
    return n;
}

// E's winning probability after the mover takes `action` in `s` (a card's pings drawn).
static double after(const State &s, const std::string &action) {
    State n = s;
    int m = s.mover, o = 1 - m;
    n.acted = true;
    if (action == "hero") {
        --n.ops;
        if (n.hand[m] < 3) ++n.hand[m];
        n.hp[m] -= 2;
        return n.hp[m] <= 0 ? dead(m) : value(n);
    }
    if (action == "play") {
        --n.ops, --n.hand[m];
        return pings(n, 3);
    }
    if (action == "end") return value(next_turn(s));
    int h = action[action.size() - (action[0] == 't' ? 3 : 1)] - '0';
    if (action[0] == 'f') {
        (h == 1 ? n.ready1 : n.ready2)--;
        n.hp[o] -= 3;
        return n.hp[o] <= 0 ? dead(o) : value(n);
    }
    int g = action.back() - '0';
    (h == 1 ? n.ready1 : n.ready2)--;
    (h == 1 ? n.one[m] : n.two[m])--;
    (g == 1 ? n.one[o] : n.two[o])--;
    return value(n);
}

// E's winning probability with the mover to choose: E maximizes it, the teacher minimizes.
static double value(const State &s) {
    unsigned long long k = key(s);
    auto found = memo.find(k);
    if (found != memo.end()) return found->second;
    std::string list[16];
    int n = actions(s, list);
    double best = s.mover == 0 ? -1 : 2;
    for (int a = 0; a < n; ++a) {
        double v = after(s, list[a]);
        best = s.mover == 0 ? (v > best ? v : best) : (v < best ? v : best);
    }
    memo[k] = best;
    return best;
}

static bool read_line(std::string &line) {
    line.clear();
    int c;
    while ((c = getchar()) != EOF && c != '\n') line += (char)c;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return c != EOF || !line.empty();
}

// The ping class the jury's name (`e2*`, `T`) gives, in a turn of `s.mover`.
static int target(const State &s, const std::string &name) {
    if (name == "E") return PLAYER_E;
    if (name == "T") return PLAYER_T;
    int side = name[0] == 'e' ? 0 : 1, hp = name[1] - '0';
    bool waits = name.size() > 2;
    if (side != s.mover) return hp == 1 ? OTHER_1 : OTHER_2;
    if (hp == 1) return waits ? MOVER_1 : MOVER_1_READY;
    return waits ? MOVER_2 : MOVER_2_READY;
}

// Plays out one action line of the mover on `s`, pings read from the jury; returns false
// when the game ended (its last line read).
static bool play_out(State &s, const std::string &action) {
    std::string line;
    int m = s.mover, o = 1 - m;
    if (action == "end") {
        s = next_turn(s);
        return true;
    }
    s.acted = true;
    if (action == "play") {
        --s.ops, --s.hand[m];
        for (int k = 0; k < 3; ++k) {
            if (!read_line(line) || line == "win" || line == "lose") return false;
            if (ping(s, target(s, line.substr(5)))) {
                read_line(line);
                return false;
            }
        }
        ++s.two[m];
        return true;
    }
    if (action == "hero") {
        --s.ops;
        if (s.hand[m] < 3) ++s.hand[m];
        s.hp[m] -= 2;
    } else {
        int h = action[action.size() - (action[0] == 't' ? 3 : 1)] - '0';
        (h == 1 ? s.ready1 : s.ready2)--;
        if (action[0] == 'f') {
            s.hp[o] -= 3;
        } else {
            int g = action.back() - '0';
            (h == 1 ? s.one[m] : s.two[m])--;
            (g == 1 ? s.one[o] : s.two[o])--;
        }
    }
    if (s.hp[0] <= 0 || s.hp[1] <= 0) {
        read_line(line);
        return false;
    }
    return true;
}

// Reads a board's line, `c a_1 ... a_c`, into its counts of 1-HP and 2-HP minions.
static bool board(int &one, int &two) {
    std::string line;
    if (!read_line(line)) return false;
    const char *p = line.c_str();
    char *end;
    int c = (int)strtol(p, &end, 10);
    one = two = 0;
    for (int k = 0; k < c; ++k) (strtol(end, &end, 10) == 1 ? one : two)++;
    return true;
}

int main() {
    std::string line;
    if (!read_line(line)) return 1;
    int games = atoi(line.c_str());
    for (int g = 0; g < games; ++g) {
        State s{};
        if (!read_line(line)) return 1;
        if (atoi(line.c_str()) != O) memo.clear(), O = atoi(line.c_str());
        if (!read_line(line) || sscanf(line.c_str(), "%d %d", &s.hp[0], &s.hp[1]) != 2) return 1;
        if (!board(s.one[1], s.two[1]) || !board(s.one[0], s.two[0])) return 1;
        if (!read_line(line) || sscanf(line.c_str(), "%d %d", &s.hand[1], &s.hand[0]) != 2)
            return 1;
        if (!read_line(line)) return 1;  // E: the program's side.
        s.mover = 1;
        s = next_turn(s);
        for (;;) {
            std::string action;
            if (s.mover == 0) {
                std::string list[16];
                int n = actions(s, list);
                double best = -1;
                for (int a = 0; a < n; ++a) {
                    double v = after(s, list[a]);
                    if (v > best) best = v, action = list[a];
                }
                printf("%s\n", action.c_str());
                fflush(stdout);
            } else {
                if (!read_line(action)) return 1;
                if (action == "win" || action == "lose") break;
            }
            if (!play_out(s, action)) break;
        }
    }
    return 0;
}
