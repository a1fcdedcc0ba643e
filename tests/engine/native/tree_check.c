/* The compiled core's shared tree, checked without Python: one position searched by many
 * threads in two runs, then every count of the tree checked, as
 * tests/engine/test_shared_tree.py checks it through Python. The tests build it with
 * the system's compiler, with ThreadSanitizer, with the portable bit counts, and for
 * Windows (run under Wine), from the same engine.h the Python module is built from.
 *
 * tree_check GAME SIZE PIE KOMI TURN PASSES LAST SWAP BOARDS LEVELS
 *            THREADS PLAYOUTS MAX_BYTES SEED REF BIAS EXPLORATION AMAF_FROM
 * The position's arguments as abstracts_tui.engine.compiled.position_args gives them,
 * BOARDS and LEVELS as comma-separated hex of each board's little-endian bytes ("-" for
 * none); then the search's (GRAVE, the solvers on).
 * Prints "ok ..." and exits 0, or prints what is wrong and exits 1. With one thread it
 * also prints the root's moves, "root MOVE:VISITS:WINS2 ...", for a comparison with the
 * Python module's search of the same seed: one thread's search is reproducible. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static int failures;

static void fail(const char *what, long long node, long long a, long long b)
{
    if (failures++ < 10) printf("wrong: %s at node %lld (%lld, %lld)\n", what, node, a, b);
}

/* Hex of little-endian bytes into the words of boards (at most `most`). */
static int read_boards(const char *text, uint64_t (*words)[6], int most)
{
    int count = 0;
    if (strcmp(text, "-") == 0) return 0;
    const char *p = text;
    while (*p) {
        if (count == most) return -1;
        memset(words[count], 0, sizeof words[count]);
        int byte = 0;
        while (*p && *p != ',') {
            unsigned value;
            if (sscanf(p, "%2x", &value) != 1 || byte >= 48) return -1;
            words[count][byte / 8] |= (uint64_t)value << (8 * (byte % 8));
            byte++;
            p += 2;
        }
        count++;
        if (*p == ',') p++;
    }
    return count;
}

/* A node's proof from its moves' proofs (0 unknown, 1 + winner, 3 a draw). */
static int proof_of(int turn, const Tree *t, const Node *nd)
{
    int unknown = nd->nedges == 0, draw = 0;
    for (int j = 0; j < nd->nedges; j++) {
        int proven = atomic_load(&t->edges[nd->edges + j].proven);
        if (proven == turn + 1) return turn + 1;
        if (proven == 0) unknown = 1;
        if (proven == 3) draw = 1;
    }
    if (unknown) return 0;
    return draw ? 3 : (1 - turn) + 1;
}

static void check_tree(Tree *t, uint64_t playouts)
{
    long long count = load_ll(&t->nnodes);
    int *reached = calloc((size_t)count, sizeof(int));
    if (!reached) {
        fail("no memory for the check", 0, 0, 0);
        return;
    }
    Node *root = &t->nodes[0];
    if (load_u32(&root->total) != playouts) fail("the root's total is not the playouts", 0, load_u32(&root->total), (long long)playouts);
    for (long long i = 0; i < count; i++) {
        Node *nd = &t->nodes[i];
        uint64_t visits = 0;
        for (int j = 0; j < nd->nedges; j++) {
            Edge *e = &t->edges[nd->edges + j];
            unsigned v = load_u32(&e->visits), wins2 = load_u32(&e->wins2);
            int child = atomic_load(&e->child), proven = atomic_load(&e->proven);
            visits += v;
            if (wins2 > 2 * v) fail("a move's wins over its visits", i, wins2, v);
            if (atomic_load(&e->pending)) fail("a walk left under way once the search ended", i, j, atomic_load(&e->pending));
            if (child < -1 || child >= count) fail("a move's node half made or out of the tree", i, j, child);
            if (child < 0 || child >= count) continue;
            Node *below = &t->nodes[child];
            reached[child]++;
            unsigned reaching = load_u32(&below->total) + load_u32(&below->ended) + 1;
            if (v != reaching) fail("a move's visits are not its node's walks plus one", i, v, reaching);
            /* a swap's proof is its node's as the other colour's person sees it */
            int own = e->move == MOVE_SWAP ? flip_proof(atomic_load(&below->solved)) : atomic_load(&below->solved);
            if (proven && own != proven) fail("a move's proof is not its node's", i, proven, own);
        }
        if (visits != load_u32(&nd->total)) fail("a node's total is not its moves' visits", i, load_u32(&nd->total), (long long)visits);
        int solved = atomic_load(&nd->solved);
        if (solved) {
            int derived = proof_of(nd->turn, t, nd);
            /* Proven by its moves, or by the exact solver when it was made. */
            if (derived != 0 && derived != solved) fail("a node's proof disagrees with its moves'", i, solved, derived);
        }
    }
    if (count > 0 && reached[0] != 0) fail("the root hangs from a move", 0, reached[0], 0);
    for (long long i = 1; i < count; i++)
        if (reached[i] != 1) fail("a node does not hang from exactly one move", i, reached[i], 1);
    free(reached);
}

int main(int argc, char **argv)
{
    if (argc != 19) {
        fprintf(stderr, "usage: tree_check GAME SIZE PIE KOMI TURN PASSES LAST SWAP BOARDS LEVELS "
                        "THREADS PLAYOUTS MAX_BYTES SEED REF BIAS EXPLORATION AMAF_FROM\n");
        return 2;
    }
    int game = atoi(argv[1]), size = atoi(argv[2]), pie = atoi(argv[3]);
    double komi = atof(argv[4]);
    int turn = atoi(argv[5]), passes = atoi(argv[6]), last = atoi(argv[7]), swap = atoi(argv[8]);
    int threads = atoi(argv[11]);
    uint64_t playouts = strtoull(argv[12], NULL, 10);
    long long max_bytes = strtoll(argv[13], NULL, 10);
    uint64_t seed = strtoull(argv[14], NULL, 10);
    Params params = {.grave = 1, .ref = atoi(argv[15]), .bias = atof(argv[16]), .exploration = atof(argv[17]),
                     .amaf_from = atoi(argv[18]), .solver = 1};
    uint64_t words[4][6], levels[MAXLEVELS][6];
    memset(words, 0, sizeof words);
    memset(levels, 0, sizeof levels);
    if (game < 0 || game > 4 || size < 2 || game_bits(game, size) > MAXBITS || threads < 1 ||
        threads > MAXTHREADS || read_boards(argv[9], words, 4) < 0 ||
        read_boards(argv[10], levels, MAXLEVELS) < 0) {
        fprintf(stderr, "tree_check: an argument is out of range\n");
        return 2;
    }
    engine_init();
    int nw = words_for(game_bits(game, size));
    void *ctx = calloc(1, ctx_size(nw)), *state = calloc(1, state_size(nw));
    if (!ctx || !state) return 2;
    DISPATCH(nw, ctx_init, (ctx, game, size, pie, komi));
    DISPATCH(nw, state_load, (ctx, state, words, levels, turn, passes, last, swap));
    Search s;
    memset(&s, 0, sizeof s);
    if (search_make(&s, ctx, nw, state, seed, threads, params, max_bytes, 1) < 0 || !search_ready(&s)) {
        printf("wrong: no memory for the search\n");
        return 1;
    }
    /* Two runs: the second goes on from the first's tree. */
    uint64_t first = playouts / 2, total = 0;
    for (int run = 0; run < 2; run++) {
        uint64_t budget = run ? playouts - first : first;
        search_begin(&s, budget, 0.0);
        search_go(&s);
        search_end(&s);
        total += budget;
        uint64_t done = atomic_load(&s.shared.playouts);
        /* A proven root stops a run early. */
        if (!atomic_load(&s.tree.root_solved) && done != total) fail("a run's playouts are not its budget", -1, (long long)done, (long long)total);
        total = done;
    }
    check_tree(&s.tree, total);
    if (search_bytes(&s) > max_bytes) fail("the tree is over its memory bound", -1, search_bytes(&s), max_bytes);
    if (!failures)
        printf("ok: %llu playouts, %lld nodes, %lld bytes, %d threads, root proof %d\n", (unsigned long long)total,
               load_ll(&s.tree.nnodes), search_bytes(&s), threads, atomic_load(&s.tree.root_solved));
    if (!failures && threads == 1) {
        Node *root = &s.tree.nodes[0];
        printf("root");
        for (int j = 0; j < root->nedges; j++) {
            Edge *e = &s.tree.edges[root->edges + j];
            printf(" %d:%u:%u", e->move, load_u32(&e->visits), load_u32(&e->wins2));
        }
        printf("\n");
    }
    search_free(&s);
    free(state);
    free(ctx);
    return failures ? 1 : 0;
}
