/* The reference of bench/run.py's distribution() line: a plain C enumerator.
 *
 * Scores every one of the 12,994,800 (4 hand cards, starter) deals from
 * scratch -- no table, no symmetry, nothing kept from one deal to the next:
 * the fifteens over the subsets of the five cards, the pairs, the runs, the
 * flush and his nobs -- and counts how many deals score each total 0..29, as a hand
 * (argv[1] == "crib": as a crib).  Prints the counts on one line, then the
 * CPU seconds the enumeration took (CLOCK_PROCESS_CPUTIME_ID: the machine is
 * shared, and wall-clock time counts the other processes too) on the next.
 *
 * Cards are 0..51: rank = card / 4 + 1 (ace 1 .. king 13), suit = card % 4.
 * Built by bench/run.py with `cc -O2` into a temporary folder.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

static int score(const int hand[4], int starter, int crib) {
    int rank[5], value[5], points = 0;
    for (int i = 0; i < 4; i++) rank[i] = hand[i] / 4 + 1;
    rank[4] = starter / 4 + 1;
    for (int i = 0; i < 5; i++) value[i] = rank[i] > 10 ? 10 : rank[i];

    /* fifteens: every set of two or more cards summing to 15.  A set of three
       is the complement of a pair, a set of four of a single card, so the
       pairs' sums and the total give every sum */
    int total = value[0] + value[1] + value[2] + value[3] + value[4];
    for (int i = 0; i < 5; i++) {
        points += 2 * (total - value[i] == 15);
        for (int j = i + 1; j < 5; j++) {
            int pair = value[i] + value[j];
            points += 2 * (pair == 15) + 2 * (total - pair == 15) + 2 * (rank[i] == rank[j]);
        }
    }
    points += 2 * (total == 15);
    /* (the pairs are counted in the same loop: every two cards of one rank) */
    /* runs: the longest streak of consecutive ranks held (5, 4 or 3: five
       cards hold at most one), times the ways to pick its cards */
    unsigned held = 0;
    unsigned long long count = 0;  /* 3 bits a rank: how many cards of it */
    for (int i = 0; i < 5; i++) {
        held |= 1u << rank[i];
        count += 1ull << (3 * rank[i]);
    }
    unsigned run3 = held & (held >> 1) & (held >> 2);
    if (run3) {
        unsigned run4 = run3 & (held >> 3);
        unsigned run5 = run4 & (held >> 4);
        int len = run5 ? 5 : run4 ? 4 : 3;
        int start = __builtin_ctz(run5 ? run5 : run4 ? run4 : run3);
        int ways = 1;
        for (int r = start; r < start + len; r++) ways *= (int)((count >> (3 * r)) & 7);
        points += len * ways;
    }
    /* flush: the four hand cards of one suit, 5 with the starter's (a crib needs all five) */
    int suit = hand[0] % 4;
    if (hand[1] % 4 == suit && hand[2] % 4 == suit && hand[3] % 4 == suit) {
        if (starter % 4 == suit) points += 5;
        else if (!crib) points += 4;
    }
    /* his nobs: the jack of the starter's suit among the four */
    for (int i = 0; i < 4; i++)
        points += (hand[i] / 4 + 1 == 11 && hand[i] % 4 == starter % 4);
    return points;
}

int main(int argc, char **argv) {
    int crib = argc > 1 && strcmp(argv[1], "crib") == 0;
    long counts[30];
    memset(counts, 0, sizeof counts);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    int hand[4];
    for (hand[0] = 0; hand[0] < 52; hand[0]++)
        for (hand[1] = hand[0] + 1; hand[1] < 52; hand[1]++)
            for (hand[2] = hand[1] + 1; hand[2] < 52; hand[2]++)
                for (hand[3] = hand[2] + 1; hand[3] < 52; hand[3]++)
                    for (int s = 0; s < 52; s++) {
                        if (s == hand[0] || s == hand[1] || s == hand[2] || s == hand[3]) continue;
                        counts[score(hand, s, crib)]++;
                    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    for (int t = 0; t < 30; t++) printf("%ld%c", counts[t], t == 29 ? '\n' : ' ');
    printf("%.6f\n", (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}
