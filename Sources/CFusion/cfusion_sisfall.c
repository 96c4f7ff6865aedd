// SisFall text parser. Design (why it is fast and still exact):
//  1. Character classes of 64 bytes at a time become bit masks (clang vector compares: SSE2 on
//     the x86-64 baseline, NEON on arm64; or uint64 SWAR). From them, one mask of "stops": every
//     ',' and ';', plus every byte that breaks the simple form of a row (see `stops`).
//  2. The stops' positions are listed (a few KB at a time, on the stack), and each row takes the
//     next nine: each field is converted from one unaligned 8-byte load that ends at its stop,
//     with SWAR arithmetic and no data-dependent branch; all checks of a row fold into one word.
//  3. Any row that fails a check (tabs, '+', wide fields, blank lines, bad bytes, wrong field
//     counts, out-of-range values) and the first row go to a careful scalar parser, which accepts
//     the full grammar and reports the first error exactly. The fast path accepts only a subset
//     of what the scalar parser accepts, with the same values, so results never depend on it.
// A plain scalar loop is the portable reference (CFUSION_SISFALL_KERNEL_SCALAR).
#include "cfusion_sisfall.h"

#include <string.h>

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL
#define LOWS7 0x7F7F7F7F7F7F7F7FULL

// The SWAR steps and the vector bit masks assume the first byte in the low bits.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#error "cfusion_sisfall.c assumes a little-endian CPU (x86-64, arm64)"
#endif

static inline uint64_t load64(const uint8_t *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline int is_space(uint8_t c) { return c == ' ' || c == '\t'; }
static inline int is_digit(uint8_t c) { return (unsigned)(c - '0') < 10u; }

// ---------------------------------------------------------------------------------------------
// Scalar row parser: the reference grammar and the source of every error report.

enum { ROW_DONE = 1, ROW_END = 0, ROW_ERROR = -1 };

static int fail(cfusion_sisfall_result *res, int32_t status, size_t rs, size_t at, int32_t field) {
    res->status = status;
    res->column = at - rs + 1;
    res->field = field;
    return ROW_ERROR;
}

// A line ends at '\n', at the end of the text, or at a '\r' right before either.
static inline int at_line_end(const uint8_t *t, size_t len, size_t p) {
    return p >= len || t[p] == '\n' || (t[p] == '\r' && (p + 1 == len || t[p + 1] == '\n'));
}

// Parses the row that starts at `rs` into `row`. ROW_DONE sets *next to the next line's start;
// ROW_END means only blank lines remain; ROW_ERROR fills status, column and field of `res`.
static int scalar_row(const uint8_t *t, size_t len, size_t rs, int16_t row[9], size_t *next,
                      cfusion_sisfall_result *res) {
    size_t p = rs;

    // A blank line is fine only when nothing but blank lines follows it.
    size_t q = p;
    while (q < len && (is_space(t[q]) || t[q] == '\r')) q++;
    if (q == len) return ROW_END;
    if (t[q] == '\n') {
        while (q < len && (is_space(t[q]) || t[q] == '\r' || t[q] == '\n')) q++;
        if (q == len) return ROW_END;
        return fail(res, CFUSION_SISFALL_EMPTY_LINE, rs, rs, 0);
    }

    for (int32_t f = 0; f < 9; f++) {
        while (p < len && is_space(t[p])) p++;
        size_t start = p;
        int neg = 0, signed_ = 0;
        if (p < len && (t[p] == '-' || t[p] == '+')) {
            neg = t[p] == '-';
            signed_ = 1;
            p++;
        }
        if (p >= len || !is_digit(t[p])) {
            if (!signed_ && at_line_end(t, len, p)) return fail(res, CFUSION_SISFALL_TOO_FEW_FIELDS, rs, p, f + 1);
            if (!signed_ && (t[p] == ',' || t[p] == ';')) return fail(res, CFUSION_SISFALL_EMPTY_FIELD, rs, p, f + 1);
            return fail(res, CFUSION_SISFALL_BAD_CHARACTER, rs, p, f + 1);
        }
        uint32_t v = 0;
        while (p < len && is_digit(t[p])) {
            if (v < 100000u) v = v * 10u + (uint32_t)(t[p] - '0'); // saturates well above the limit
            p++;
        }
        if (v > 32767u + (uint32_t)neg) return fail(res, CFUSION_SISFALL_OUT_OF_RANGE, rs, start, f + 1);
        row[f] = (int16_t)(neg ? -(int32_t)v : (int32_t)v);
        while (p < len && is_space(t[p])) p++;
        if (f < 8) {
            if (p < len && t[p] == ',') {
                p++;
                continue;
            }
            if (at_line_end(t, len, p) || t[p] == ';') return fail(res, CFUSION_SISFALL_TOO_FEW_FIELDS, rs, p, f + 2);
            return fail(res, CFUSION_SISFALL_BAD_CHARACTER, rs, p, f + 1);
        }
        if (p < len && t[p] == ';') {
            p++;
            break;
        }
        if (p < len && t[p] == ',') return fail(res, CFUSION_SISFALL_TOO_MANY_FIELDS, rs, p, 10);
        if (at_line_end(t, len, p)) return fail(res, CFUSION_SISFALL_MISSING_SEMICOLON, rs, p, 9);
        return fail(res, CFUSION_SISFALL_BAD_CHARACTER, rs, p, 9);
    }
    while (p < len && is_space(t[p])) p++;
    if (p < len && t[p] == '\r') p++;
    if (p == len) {
        *next = len;
        return ROW_DONE;
    }
    if (t[p] == '\n') {
        *next = p + 1;
        return ROW_DONE;
    }
    return fail(res, CFUSION_SISFALL_BAD_CHARACTER, rs, p, 0);
}

// ---------------------------------------------------------------------------------------------
// Character classes of 64 bytes as bit masks (bit i = byte i).

typedef struct classes {
    uint64_t digit, space, minus, comma, semi, cr, lf;
} classes;

// High bit set in each byte of x that is zero (exact: no borrow between bytes).
static inline uint64_t zero_bytes(uint64_t x) { return ~(((x & LOWS7) + LOWS7) | x) & HIGHS; }

// Gathers the high bit of each byte into 8 bits (distinct partial products, so no carries).
static inline uint64_t gather_highs(uint64_t hi) { return ((hi >> 7) * 0x0102040810204080ULL) >> 56; }

static inline classes classes_swar(const uint8_t *p) {
    classes c = {0, 0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 8; i++) {
        uint64_t w = load64(p + 8 * i);
        uint64_t t = w ^ (ONES * '0');
        uint64_t nondigit = (((t & LOWS7) + (ONES * 0x76)) | t) & HIGHS;
        unsigned sh = 8 * (unsigned)i;
        c.digit |= gather_highs(~nondigit & HIGHS) << sh;
        c.space |= gather_highs(zero_bytes(w ^ (ONES * ' '))) << sh;
        c.minus |= gather_highs(zero_bytes(w ^ (ONES * '-'))) << sh;
        c.comma |= gather_highs(zero_bytes(w ^ (ONES * ','))) << sh;
        c.semi |= gather_highs(zero_bytes(w ^ (ONES * ';'))) << sh;
        c.cr |= gather_highs(zero_bytes(w ^ (ONES * '\r'))) << sh;
        c.lf |= gather_highs(zero_bytes(w ^ (ONES * '\n'))) << sh;
    }
    return c;
}

typedef uint8_t cfusion_u8x64 __attribute__((ext_vector_type(64)));
typedef _Bool cfusion_b64 __attribute__((ext_vector_type(64)));

// clang lowers these to pcmpeqb/pmovmskb (SSE2, the x86-64 baseline) and to cmeq plus a bit
// gather on arm64.
static inline uint64_t bits(cfusion_b64 m) {
    uint64_t r;
    memcpy(&r, &m, 8);
    return r;
}

static inline classes classes_vector(const uint8_t *p) {
    cfusion_u8x64 v;
    memcpy(&v, p, 64);
    classes c;
    c.digit = bits(__builtin_convertvector((cfusion_u8x64)(v - (uint8_t)'0') < (uint8_t)10, cfusion_b64));
    c.space = bits(__builtin_convertvector(v == ' ', cfusion_b64));
    c.minus = bits(__builtin_convertvector(v == '-', cfusion_b64));
    c.comma = bits(__builtin_convertvector(v == ',', cfusion_b64));
    c.semi = bits(__builtin_convertvector(v == ';', cfusion_b64));
    c.cr = bits(__builtin_convertvector(v == '\r', cfusion_b64));
    c.lf = bits(__builtin_convertvector(v == '\n', cfusion_b64));
    return c;
}

static inline unsigned is_cls(uint8_t c, uint8_t want) { return c == want; }

// The stops of the 64 bytes from `b` (b >= 1): every ',' and ';', plus every byte that breaks the
// fast grammar  row = field (',' field){8} ';' ['\r'] '\n',  field = ' '* ['-'] digit+.
// A broken byte becomes a stop that is not ',' or ';', so the row holding it fails its check and
// goes to the scalar parser. The rules, each about one byte and its neighbour:
//   digit -> digit | ',' | ';'    '-' -> digit    ' ' -> ' ' | '-' | digit
//   '\r' only after ';'           '\n' only after '\r' or ';'      no other bytes at all
// Within a row they leave exactly the fields the SWAR conversion reads correctly.
static inline __attribute__((always_inline)) uint64_t stops(const uint8_t *t, size_t len, size_t b, int vector) {
    classes c;
    size_t n = len - b;
    if (n >= 64) {
        c = vector ? classes_vector(t + b) : classes_swar(t + b);
    } else {
        uint8_t tail[64] = {0};
        memcpy(tail, t + b, n);
        c = vector ? classes_vector(tail) : classes_swar(tail);
    }
    uint8_t after = n > 64 ? t[b + 64] : 0; // 0 belongs to no class
    uint8_t before = t[b - 1];
    uint64_t next_digit = (c.digit >> 1) | ((uint64_t)((unsigned)(after - '0') < 10u) << 63);
    uint64_t next_space = (c.space >> 1) | ((uint64_t)is_cls(after, ' ') << 63);
    uint64_t next_minus = (c.minus >> 1) | ((uint64_t)is_cls(after, '-') << 63);
    uint64_t next_sep = ((c.comma | c.semi) >> 1) | ((uint64_t)(is_cls(after, ',') | is_cls(after, ';')) << 63);
    uint64_t prev_semi = (c.semi << 1) | is_cls(before, ';');
    uint64_t prev_cr = (c.cr << 1) | is_cls(before, '\r');
    uint64_t known = c.digit | c.space | c.minus | c.comma | c.semi | c.cr | c.lf;
    uint64_t broken = ~known | (c.digit & ~(next_digit | next_sep)) | (c.minus & ~next_digit) |
                      (c.space & ~(next_space | next_minus | next_digit)) | (c.cr & ~prev_semi) |
                      (c.lf & ~(prev_cr | prev_semi));
    uint64_t m = c.comma | c.semi | broken;
    if (n < 64) m &= (1ULL << n) - 1; // no stops past the text
    return m;
}

// One field that ends right before the stop `end` and is `len` bytes long, where the stops
// already guarantee the form ' '* ['-'] digit+ (or the row fails elsewhere). Returns zero exactly
// when 1 <= len <= 8 (all of the field is in the 8-byte load) and the value is within
// -32768...32767; otherwise the row is re-parsed, so the stored value does not matter.
// All checks fold into one returned word so that the row needs a single branch.
static inline uint64_t swar_field(const uint8_t *end, size_t len, int16_t *out) {
    uint64_t w = load64(end - 8) & (~0ULL << ((0u - 8u * (unsigned)len) & 63)); // the field, zeros before
    uint64_t digits = ((w >> 4) & ONES) * 0xFF;                                   // bit 4: digits only
    uint64_t d = w & digits & (ONES * 0x0F);                // non-digits become leading zeros
    uint32_t neg = (w & ~(w >> 1) & (ONES * 0x08)) != 0;    // '-' alone has bit 3 without bit 4
    d = (d * 2561) >> 8;                                    // pairs of digits
    d = ((d & 0x00FF00FF00FF00FFULL) * 6553601) >> 16;      // groups of four
    uint32_t value = (uint32_t)(((d & 0x0000FFFF0000FFFFULL) * 42949672960001ULL) >> 32);
    *out = (int16_t)((value ^ (0u - neg)) + neg);
    return ((value - neg) >> 15) | ((len - 1) >> 3); // range ("-0" too) and 1 <= len <= 8
}

typedef uint64_t cfusion_u64x2 __attribute__((ext_vector_type(2)));
typedef uint32_t cfusion_u32x4 __attribute__((ext_vector_type(4)));
typedef uint16_t cfusion_u16x8 __attribute__((ext_vector_type(8)));
typedef uint8_t cfusion_u8x16 __attribute__((ext_vector_type(16)));

// swar_field for two fields at once, one per 64-bit lane of `w` (each already cut to its bytes):
// the same steps in 128-bit vectors, so a row's nine fields need five conversions. Returns the
// values in the lanes; range failures are ORed into *bad.
static inline __attribute__((always_inline)) cfusion_u64x2 convert_pair(cfusion_u64x2 w, cfusion_u64x2 *bad) {
    cfusion_u8x16 b = (cfusion_u8x16)w;
    cfusion_u8x16 digits = (cfusion_u8x16)((b & 0x10) != 0);  // bit 4: digits only
    cfusion_u8x16 d = b & digits & 0x0F;                        // non-digits become leading zeros
    cfusion_u64x2 minus = (cfusion_u64x2)(cfusion_u8x16)(b == '-');
    cfusion_u64x2 neg = (cfusion_u64x2)(minus != 0);            // all ones in a negative lane
    cfusion_u16x8 p = (cfusion_u16x8)d;
    p = (p & 0xFF) * 10 + (p >> 8);                             // pairs of digits
    cfusion_u32x4 q = (cfusion_u32x4)((p * (cfusion_u16x8){100, 0, 100, 0, 100, 0, 100, 0})) + ((cfusion_u32x4)p >> 16);
    cfusion_u64x2 q64 = (cfusion_u64x2)q;
    cfusion_u64x2 v = (q64 & 0xFFFFFFFFu) * 10000 + (q64 >> 32); // groups of four, then the value
    *bad |= (v - (neg & 1)) >> 15;                              // range, as in swar_field
    return (v ^ neg) - neg;
}

// The field that ends before stop `e` and starts at `fs`, cut to its bytes (see swar_field).
static inline uint64_t field_word(const uint8_t *t, size_t fs, size_t e) {
    return load64(t + e - 8) & (~0ULL << ((0u - 8u * (unsigned)(e - fs)) & 63));
}

// A whole row with convert_pair: `stop` holds the row's nine stops. Returns nonzero on any doubt.
static inline __attribute__((always_inline)) uint64_t vector_row(const uint8_t *t, size_t rs, const size_t stop[9],
                                                                 int16_t *row) {
    uint64_t bad = 0;
    size_t fs[9];
    fs[0] = rs;
    for (int k = 1; k < 9; k++) fs[k] = stop[k - 1] + 1;
    for (int k = 0; k < 9; k++) {
        bad |= t[stop[k]] ^ (k < 8 ? ',' : ';');
        bad |= (stop[k] - fs[k] - 1) >> 3; // 1 <= length <= 8
    }
    cfusion_u64x2 vbad = {0, 0};
    cfusion_u64x2 v01 = convert_pair((cfusion_u64x2){field_word(t, fs[0], stop[0]), field_word(t, fs[1], stop[1])}, &vbad);
    cfusion_u64x2 v23 = convert_pair((cfusion_u64x2){field_word(t, fs[2], stop[2]), field_word(t, fs[3], stop[3])}, &vbad);
    cfusion_u64x2 v45 = convert_pair((cfusion_u64x2){field_word(t, fs[4], stop[4]), field_word(t, fs[5], stop[5])}, &vbad);
    cfusion_u64x2 v67 = convert_pair((cfusion_u64x2){field_word(t, fs[6], stop[6]), field_word(t, fs[7], stop[7])}, &vbad);
    cfusion_u64x2 v8 = convert_pair((cfusion_u64x2){field_word(t, fs[8], stop[8]), 0}, &vbad);
    // The low 16 bits of each lane, in order: eight values in one store, the ninth apart.
    cfusion_u16x8 a = __builtin_shufflevector((cfusion_u16x8)v01, (cfusion_u16x8)v23, 0, 4, 8, 12, 0, 4, 8, 12);
    cfusion_u16x8 c = __builtin_shufflevector((cfusion_u16x8)v45, (cfusion_u16x8)v67, 0, 4, 8, 12, 0, 4, 8, 12);
    cfusion_u16x8 all = __builtin_shufflevector(a, c, 0, 1, 2, 3, 8, 9, 10, 11);
    memcpy(row, &all, 16);
    row[8] = (int16_t)v8[0];
    return bad | vbad[0] | vbad[1];
}

// ---------------------------------------------------------------------------------------------
// Drivers.

static cfusion_sisfall_result finish_error(cfusion_sisfall_result res, size_t rows) {
    res.rows = rows;
    res.line = rows + 1; // blank lines stop the text, so every earlier line was a row
    return res;
}

static cfusion_sisfall_result capacity_error(size_t rows) {
    cfusion_sisfall_result res = {rows, rows + 1, 1, 0, CFUSION_SISFALL_CAPACITY};
    return res;
}

// Scalar rows from `rs` to the end.
static cfusion_sisfall_result parse_rest_scalar(const uint8_t *t, size_t len, int16_t *out, size_t cap,
                                                size_t rows, size_t rs) {
    cfusion_sisfall_result res = {0, 0, 0, 0, CFUSION_SISFALL_OK};
    while (rs < len) {
        int16_t row[9];
        size_t next = len;
        int r = scalar_row(t, len, rs, row, &next, &res);
        if (r == ROW_ERROR) return finish_error(res, rows);
        if (r == ROW_END) break;
        if (rows >= cap) return capacity_error(rows);
        memcpy(out + rows * 9, row, sizeof row);
        rows++;
        rs = next;
    }
    res.rows = rows;
    return res;
}

// Without this clang keeps every field's checks alive until the end of the row and spills them.
#if defined(__GNUC__)
#define KEEP_IN_REGISTER(x) __asm__("" : "+r"(x))
#else
#define KEEP_IN_REGISTER(x) ((void)0)
#endif

// Bytes of text whose stops are listed at a time: the list lives on the stack.
#define CHUNK 4096

// Appends the positions (relative to `base`) of the set bits of `m` at `out`, eight at a time
// without a branch per bit (a branch per bit would mispredict at every block edge); returns the
// new end. May write up to 8 entries past it.
static inline uint32_t *flatten(uint32_t *out, uint32_t base, uint64_t m) {
    unsigned n = (unsigned)__builtin_popcountll(m);
    uint32_t *end = out + n;
    for (int i = 0; i < 8; i++) {
        out[i] = base + (uint32_t)__builtin_ctzg(m, 64);
        m &= m - 1;
    }
    if (n > 8) {
        for (int i = 8; i < 16; i++) {
            out[i] = base + (uint32_t)__builtin_ctzg(m, 64);
            m &= m - 1;
        }
        for (out += 16; m; m &= m - 1) *out++ = base + (uint32_t)__builtin_ctzll(m);
    }
    return end;
}

// Lists the stops of up to CHUNK bytes from the byte before a row, then parses rows with nine
// listed stops each: the per-field work has no unpredictable branch. A row that fails any check,
// and the first row, go to the scalar parser; the fast path resumes at the next row with the
// stops already listed.
static inline __attribute__((always_inline)) cfusion_sisfall_result
parse_fast(const uint8_t *t, size_t len, int16_t *out, size_t cap, int vector) {
    cfusion_sisfall_result res = {0, 0, 0, 0, CFUSION_SISFALL_OK};
    uint32_t list[CHUNK + 64 + 16];
    const uint32_t *s = list; // the next listed stop
    size_t count = 0;         // listed stops from s on
    size_t base = 0;          // the text position that list entries count from
    size_t end = 0;           // the end of the listed text
    size_t rows = 0;
    size_t rs = 0; // start of the current row
    goto slow;     // the first row: the 8-byte loads need 8 bytes before every stop
    for (;;) {
        if (rs >= len) break;
        if (count < 9) {
            if (end == len) break; // no more stops: the scalar tail below
            base = rs - 1;         // one byte early, so the rules see the byte before the row
            end = len - base > CHUNK ? base + CHUNK : len;
            uint32_t *last = list;
            for (size_t b = base; b < end; b += 64) last = flatten(last, (uint32_t)(b - base), stops(t, len, b, vector));
            s = list;
            count = (size_t)(last - list);
            if (count < 9) {
                if (end == len) break;
                goto slow; // a row longer than CHUNK
            }
        }
        {
            if (rows >= cap) goto slow;
            int16_t *row = out + rows * 9;
            size_t e = rs;
            uint64_t bad = 0;
            if (vector) {
                size_t stop[9];
                for (int k = 0; k < 9; k++) stop[k] = base + s[k];
                bad = vector_row(t, rs, stop, row);
                e = stop[8];
            } else {
                size_t fs = rs;
#pragma clang loop unroll(full)
                for (unsigned k = 0; k < 9; k++) {
                    e = base + s[k];
                    bad |= t[e] ^ (k < 8 ? ',' : ';');
                    bad |= swar_field(t + e, e - fs, row + k);
                    fs = e + 1;
                    KEEP_IN_REGISTER(bad);
                }
            }
            size_t n = len;
            if (e + 1 == len)
                n = len;
            else if (t[e + 1] == '\r' && e + 2 < len && t[e + 2] == '\n')
                n = e + 3;
            else if (t[e + 1] == '\n')
                n = e + 2;
            else
                bad = 1;
            if (bad) goto slow;
            rows++;
            rs = n;
            s += 9;
            count -= 9;
            continue;
        }
    slow: {
        int16_t tmp[9];
        size_t next = len;
        int r = scalar_row(t, len, rs, tmp, &next, &res);
        if (r == ROW_ERROR) return finish_error(res, rows);
        if (r == ROW_END) {
            res.rows = rows;
            return res;
        }
        if (rows >= cap) return capacity_error(rows);
        memcpy(out + rows * 9, tmp, sizeof tmp);
        rows++;
        rs = next;
        while (count > 0 && base + *s < rs) { // stops of the row just parsed
            s++;
            count--;
        }
    }
    }
    // An unterminated last row, trailing blank lines, or nothing.
    return parse_rest_scalar(t, len, out, cap, rows, rs);
}

static cfusion_sisfall_result parse_vector(const uint8_t *t, size_t len, int16_t *out, size_t cap) {
    return parse_fast(t, len, out, cap, 1);
}

static cfusion_sisfall_result parse_swar(const uint8_t *t, size_t len, int16_t *out, size_t cap) {
    return parse_fast(t, len, out, cap, 0);
}

size_t cfusion_sisfall_max_rows(size_t length) { return length / 19 + 1; }

cfusion_sisfall_result cfusion_sisfall_parse_kernel(const void *text, size_t length, int16_t *out,
                                                    size_t capacity_rows, cfusion_sisfall_kernel kernel) {
    const uint8_t *t = (const uint8_t *)text;
    if (length == 0 || t == NULL) {
        cfusion_sisfall_result empty = {0, 0, 0, 0, CFUSION_SISFALL_OK};
        return empty;
    }
    switch (kernel) {
    case CFUSION_SISFALL_KERNEL_SCALAR:
        return parse_rest_scalar(t, length, out, capacity_rows, 0, 0);
    case CFUSION_SISFALL_KERNEL_SWAR:
        return parse_swar(t, length, out, capacity_rows);
    case CFUSION_SISFALL_KERNEL_AUTO:
    case CFUSION_SISFALL_KERNEL_VECTOR:
    default:
        return parse_vector(t, length, out, capacity_rows);
    }
}

cfusion_sisfall_result cfusion_sisfall_parse(const void *text, size_t length, int16_t *out, size_t capacity_rows) {
    return cfusion_sisfall_parse_kernel(text, length, out, capacity_rows, CFUSION_SISFALL_KERNEL_AUTO);
}

size_t cfusion_sisfall_count_newlines(const void *text, size_t length) {
    const uint8_t *t = (const uint8_t *)text;
    size_t n = 0;
    for (size_t i = 0; i < length; i++) n += t[i] == '\n'; // clang vectorises this loop
    return n;
}

const char *cfusion_sisfall_status_text(int32_t status) {
    switch (status) {
    case CFUSION_SISFALL_OK: return "ok";
    case CFUSION_SISFALL_TOO_FEW_FIELDS: return "fewer than 9 fields";
    case CFUSION_SISFALL_TOO_MANY_FIELDS: return "more than 9 fields";
    case CFUSION_SISFALL_BAD_CHARACTER: return "unexpected character";
    case CFUSION_SISFALL_EMPTY_FIELD: return "empty field";
    case CFUSION_SISFALL_OUT_OF_RANGE: return "value outside -32768...32767";
    case CFUSION_SISFALL_MISSING_SEMICOLON: return "missing ';' after the ninth field";
    case CFUSION_SISFALL_EMPTY_LINE: return "blank line before more rows";
    case CFUSION_SISFALL_CAPACITY: return "more rows than the output buffer holds";
    default: return "unknown status";
    }
}
