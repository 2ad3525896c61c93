// A right hero-battle player in C++, written from the statement's rules alone: each turn it
// plays a move that keeps its won position won, found by a memoized win-or-lose search over
// the four hit points and the mover. The search visits every position reachable from the
// game's start, which is quick on small hit points (the package's levels) and slow on the
// limits' extremes (99 hit points against damage 1, up to 99^4 positions).
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>

static int damage[2][2][2];  // damage[side][attacker][target]: side 0 is Alice.
static std::unordered_map<unsigned, bool> memo;

struct Position {
    int hp[2][2];  // hp[side][hero], at most 0 once dead.
    int mover;
};

static unsigned key(const Position &p) {
    unsigned k = p.mover;
    for (int s = 0; s < 2; ++s)
        for (int h = 0; h < 2; ++h) k = k * 128 + (p.hp[s][h] > 0 ? p.hp[s][h] : 0);
    return k;
}

static bool alive(const Position &p, int side, int hero) { return p.hp[side][hero] > 0; }

// The position after the mover's heroes 1 and 2 hit the targets t[0] and t[1] (0 or 1), as
// the statement's joint choice: each living attacker hits its target.
static Position after(const Position &p, const int t[2]) {
    Position next = p;
    int enemy = 1 - p.mover;
    for (int h = 0; h < 2; ++h)
        if (alive(p, p.mover, h)) next.hp[enemy][t[h]] -= damage[p.mover][h][t[h]];
    next.mover = enemy;
    return next;
}

static bool lost(const Position &p, int side) { return !alive(p, side, 0) && !alive(p, side, 1); }

// The moves of the mover, each as the two targets (unused for a dead attacker).
static int moves(const Position &p, int out[4][2]) {
    int enemy = 1 - p.mover, count = 0;
    int targets[2], n = 0;
    for (int h = 0; h < 2; ++h)
        if (alive(p, enemy, h)) targets[n++] = h;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            // A dead attacker's target is no choice: one move per living attacker's target.
            if (!alive(p, p.mover, 0) && i > 0) continue;
            if (!alive(p, p.mover, 1) && j > 0) continue;
            out[count][0] = targets[i];
            out[count][1] = targets[j];
            ++count;
        }
    return count;
}

static bool wins(const Position &p) {
    unsigned k = key(p);
    auto found = memo.find(k);
    if (found != memo.end()) return found->second;
    int list[4][2];
    int n = moves(p, list);
    bool win = false;
    for (int m = 0; m < n && !win; ++m) {
        Position next = after(p, list[m]);
        win = lost(next, next.mover) || !wins(next);
    }
    memo[k] = win;
    return win;
}

static bool read_line(char *line, int size) {
    if (!fgets(line, size, stdin)) return false;
    line[strcspn(line, "\r\n")] = 0;
    return true;
}

int main() {
    char line[256];
    int games;
    if (!read_line(line, sizeof line) || sscanf(line, "%d", &games) != 1) return 1;
    for (int g = 0; g < games; ++g) {
        char first[64], side[64];
        int v[12];
        if (!read_line(line, sizeof line) || !read_line(first, sizeof first) ||
            !read_line(side, sizeof side))
            return 1;
        if (sscanf(line, "%d %d %d %d %d %d %d %d %d %d %d %d", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11]) != 12)
            return 1;
        Position p;
        p.hp[0][0] = v[0], p.hp[0][1] = v[1], p.hp[1][0] = v[2], p.hp[1][1] = v[3];
        for (int s = 0; s < 2; ++s)
            for (int a = 0; a < 2; ++a)
                for (int t = 0; t < 2; ++t) damage[s][a][t] = v[4 + 4 * s + 2 * a + t];
        memo.clear();
        p.mover = strcmp(first, "Alice") == 0 ? 0 : 1;
        int me = strcmp(side, "Alice") == 0 ? 0 : 1;
        for (;;) {
            if (p.mover == me) {
                int list[4][2], n = moves(p, list), chosen = 0;
                for (int m = 0; m < n; ++m) {
                    Position next = after(p, list[m]);
                    if (lost(next, next.mover) || !wins(next)) {
                        chosen = m;
                        break;
                    }
                }
                int t[2];
                for (int h = 0; h < 2; ++h) t[h] = alive(p, me, h) ? list[chosen][h] + 1 : 0;
                printf("%d %d\n", t[0], t[1]);
                fflush(stdout);
                p = after(p, list[chosen]);
            }
            if (!read_line(line, sizeof line)) return 1;
            if (!strcmp(line, "win") || !strcmp(line, "lose")) break;
            int t[2];
            if (sscanf(line, "%d %d", &t[0], &t[1]) != 2) return 1;
            for (int h = 0; h < 2; ++h) t[h] = t[h] > 0 ? t[h] - 1 : 0;
            p = after(p, t);
        }
    }
    return 0;
}
