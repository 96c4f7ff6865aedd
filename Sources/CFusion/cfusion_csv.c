// CSV number parser. Why it is fast and still exact:
//  - One pass over the bytes, no copies, no allocation: fields that are not asked for are only
//    scanned for their end, and wanted ones are converted where they lie.
//  - A plain decimal of at most 19 digits whose value is below 2^53 and whose power of ten is within
//    10^-22...10^22 is converted as one IEEE multiplication or division of two exact doubles, which
//    is correctly rounded (Clinger's fast path): the same double strtod gives. Everything else
//    (longer mantissas, larger exponents, hex, inf, nan, odd text) goes to strtod_l in the C locale,
//    so values never depend on which path read them.
//  - A row that fails any check is handed back whole: the caller reports it.
#define _GNU_SOURCE
#include "cfusion_csv.h"

#include <locale.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__APPLE__)
#include <xlocale.h>
#endif

// The fast path needs double arithmetic without extended precision (SSE2 on x86-64, arm64).
#if !defined(__FLT_EVAL_METHOD__) || __FLT_EVAL_METHOD__ != 0
#error "cfusion_csv.c needs FLT_EVAL_METHOD 0 for correctly rounded conversions"
#endif

static inline int is_digit(uint8_t c) { return (unsigned)(c - '0') < 10u; }

// ' ' and '\t' around a field are ignored, except the one that is the delimiter.
static inline int is_blank(uint8_t c, uint8_t delimiter) { return (c == ' ' || c == '\t') && c != delimiter; }

// ---------------------------------------------------------------------------------------------
// strtod in the C locale, whatever setlocale the process made.

static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void) { c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0); }

// The whole of [s, s + n) as strtod reads it; 0 when strtod stops early or the text starts with
// whitespace (strtod would skip it; Swift's Double(String), the reader's old parser, refuses it).
static int strtod_exact(const uint8_t *s, size_t n, double *out) {
    if (n == 0 || s[0] <= ' ') return 0;
    char small[64];
    char *buffer = n < sizeof small ? small : malloc(n + 1);
    if (buffer == NULL) return 0;
    memcpy(buffer, s, n);
    buffer[n] = 0;
    pthread_once(&c_locale_once, make_c_locale);
    char *end = buffer;
    double v = c_locale ? strtod_l(buffer, &end, c_locale) : strtod(buffer, &end);
    int ok = end == buffer + n;
    if (buffer != small) free(buffer);
    if (ok) *out = v;
    return ok;
}

// ---------------------------------------------------------------------------------------------
// The fast decimal path.

static const double powers_of_ten[23] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

enum { FAST_OK = 1, FAST_UNSURE = 0 };

// Reads  [+-] digits [. digits] [(e|E) [+-] digits]  from t[*p] on (the text ends at `len`), with
// at least one mantissa digit. On FAST_OK the number is exact in *out and *p is past it; FAST_UNSURE
// means "not this simple form" and leaves the decision to strtod.
static inline int fast_decimal(const uint8_t *t, size_t len, size_t *p, double *out) {
    size_t q = *p;
    int neg = 0;
    if (q < len && (t[q] == '-' || t[q] == '+')) {
        neg = t[q] == '-';
        q++;
    }
    uint64_t m = 0;
    size_t first = q;
    while (q < len && is_digit(t[q])) m = m * 10 + (uint64_t)(t[q++] - '0');
    size_t digits = q - first;
    int64_t exponent = 0;
    if (q < len && t[q] == '.') {
        size_t f = ++q;
        while (q < len && is_digit(t[q])) m = m * 10 + (uint64_t)(t[q++] - '0');
        digits += q - f;
        exponent = -(int64_t)(q - f);
    }
    // 19 digits always fit in 64 bits; more may have wrapped.
    if (digits == 0 || digits > 19) return FAST_UNSURE;
    if (q < len && (t[q] | 0x20) == 'e') {
        q++;
        int eneg = 0;
        if (q < len && (t[q] == '-' || t[q] == '+')) {
            eneg = t[q] == '-';
            q++;
        }
        if (q >= len || !is_digit(t[q])) return FAST_UNSURE;
        int64_t e = 0;
        while (q < len && is_digit(t[q])) {
            if (e < 100000) e = e * 10 + (t[q] - '0'); // saturates far outside the fast range
            q++;
        }
        exponent += eneg ? -e : e;
    }
    double v;
    if (m == 0) {
        v = 0; // any exponent: strtod gives a zero of the sign read
    } else if (m <= (1ULL << 53) && exponent >= -22 && exponent <= 22) {
        v = (double)m; // exact
        v = exponent < 0 ? v / powers_of_ten[-exponent] : v * powers_of_ten[exponent];
    } else {
        return FAST_UNSURE;
    }
    *out = neg ? -v : v;
    *p = q;
    return FAST_OK;
}

// ---------------------------------------------------------------------------------------------
// Rows.

// A line ends at '\n', at the end of the text, or at a '\r' right before either.
static inline int at_line_end(const uint8_t *t, size_t len, size_t p) {
    return p >= len || t[p] == '\n' || (t[p] == '\r' && (p + 1 == len || t[p + 1] == '\n'));
}

// The end of the field that starts at p: its delimiter or its line's end.
static inline size_t field_end(const uint8_t *t, size_t len, size_t p, uint8_t delimiter) {
    while (p < len && t[p] != delimiter && !at_line_end(t, len, p)) p++;
    return p;
}

// The '\n' that ends the line holding p, or len.
static inline size_t line_end(const uint8_t *t, size_t len, size_t p) {
    const void *nl = p < len ? memchr(t + p, '\n', len - p) : NULL;
    return nl ? (size_t)((const uint8_t *)nl - t) : len;
}

// Whether the line from p holds only whitespace (and so is skipped).
static inline int blank_line(const uint8_t *t, size_t len, size_t p) {
    for (; p < len && t[p] != '\n'; p++) {
        uint8_t c = t[p];
        if (!(c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f')) return 0;
    }
    return 1;
}

// The wanted field [s, e) (its line ending already cut): trimmed, then the fast decimal path or
// strtod, never past e. 1 when it is a finite number.
static inline int exact_field(const uint8_t *t, size_t s, size_t e, uint8_t delimiter, double *out) {
    while (s < e && is_blank(t[s], delimiter)) s++;
    while (e > s && is_blank(t[e - 1], delimiter)) e--;
    size_t q = s;
    double v;
    if (!(fast_decimal(t, e, &q, &v) == FAST_OK && q == e) && !strtod_exact(t + s, e - s, &v)) return 0;
    if (!(v - v == 0)) return 0; // inf or nan
    *out = v;
    return 1;
}

// Parses the wanted field at p (p at its first byte), leaving p at its delimiter or line end.
// Returns 0 when the field is not a finite number. The field is found first, so that a number
// never runs on into the next field when the delimiter is a byte a number may hold (a digit, '.',
// 'e', '+' or '-'): the vector kernel reads fields the same way.
static inline int wanted_field(const uint8_t *t, size_t len, size_t *p, uint8_t delimiter, double *out) {
    size_t start = *p;
    *p = field_end(t, len, start, delimiter);
    return exact_field(t, start, *p, delimiter, out);
}

enum { ROW_SKIPPED, ROW_GOOD, ROW_BAD };

static inline int space_class(uint8_t c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n';
}

// The line from p, byte by byte: the reference grammar. ROW_GOOD fills `row`; ROW_BAD sets *bad_end
// (the row without its line ending). Either way *next is the next line's start (at most len).
static int scalar_row(const uint8_t *t, size_t len, size_t p, uint8_t delimiter, const int32_t *columns,
                      size_t column_count, double *row, size_t *next, size_t *bad_end) {
    uint8_t c = t[p];
    // Comment and blank lines; a line that starts with a blank may still be a row.
    if (c == '#' || (space_class(c) && blank_line(t, len, p))) {
        size_t nl = line_end(t, len, p);
        *next = nl < len ? nl + 1 : len;
        return ROW_SKIPPED;
    }
    size_t rs = p;
    int32_t field = 0;
    int bad = 0;
    for (size_t k = 0; k < column_count && !bad; k++) {
        // Skip to the wanted field; the line ending first means it is missing.
        while (field < columns[k]) {
            p = field_end(t, len, p, delimiter);
            if (p >= len || t[p] != delimiter || at_line_end(t, len, p)) {
                bad = 1;
                break;
            }
            p++;
            field++;
        }
        if (bad || !wanted_field(t, len, &p, delimiter, row + k)) {
            bad = 1;
            break;
        }
        // p is at the field's delimiter or line end.
        if (k + 1 < column_count) {
            if (p >= len || t[p] != delimiter || at_line_end(t, len, p)) {
                bad = 1;
                break;
            }
            p++;
            field++;
        }
    }
    size_t nl = line_end(t, len, p);
    *next = nl < len ? nl + 1 : len;
    if (!bad) return ROW_GOOD;
    size_t end = nl;
    if (end > rs && t[end - 1] == '\r') end--;
    *bad_end = end;
    return ROW_BAD;
}

// ---------------------------------------------------------------------------------------------
// The vector kernel: the positions of every delimiter and '\n' ("stops") come from 64-byte bit
// masks, taken in order one bit at a time, so rows walk from stop to stop without looking at each
// byte; each field's end hangs on one bit operation, not on a load. Plain fields ([-] digits
// [. digits]) are converted from one 64-bit word when they take at most 8 bytes after the sign
// (short_decimal, the common case), else 16 bytes at a time (up to 16 digits). The row loop
// (vector_rows) keeps the rarer paths out of line. Any row it is not sure of (comment, blank or
// indented lines, missing fields, a field that is not a number, the last row without '\n') goes to
// scalar_row, so results never depend on the kernel (the tests compare both).

typedef uint8_t cfusion_csv_u8x64 __attribute__((ext_vector_type(64)));
typedef _Bool cfusion_csv_b64 __attribute__((ext_vector_type(64)));
typedef uint8_t cfusion_csv_u8x16 __attribute__((ext_vector_type(16)));
typedef _Bool cfusion_csv_b16 __attribute__((ext_vector_type(16)));
typedef uint16_t cfusion_csv_u16x8 __attribute__((ext_vector_type(8)));
typedef uint32_t cfusion_csv_u32x4 __attribute__((ext_vector_type(4)));
typedef uint64_t cfusion_csv_u64x2 __attribute__((ext_vector_type(2)));

static inline uint64_t mask64(cfusion_csv_b64 m) {
    uint64_t r;
    memcpy(&r, &m, 8);
    return r;
}

static inline uint32_t mask16(cfusion_csv_b16 m) {
    uint16_t r;
    memcpy(&r, &m, 2);
    return r;
}

// Bit i set when byte i of the 64 from t + b is a stop (bytes past len are not).
static inline uint64_t stops(const uint8_t *t, size_t len, size_t b, uint8_t delimiter) {
    cfusion_csv_u8x64 v;
    size_t n = len - b;
    if (n >= 64) {
        memcpy(&v, t + b, 64);
    } else {
        uint8_t tail[64] = {0};
        memcpy(tail, t + b, n);
        memcpy(&v, tail, 64);
    }
    uint64_t m = mask64(__builtin_convertvector(v == delimiter, cfusion_csv_b64)) |
                 mask64(__builtin_convertvector(v == '\n', cfusion_csv_b64));
    if (n < 64) m &= (1ULL << n) - 1;
    return m;
}

// [s, e) as  ['-'] digit* ['.' digit*]  with 1 to 16 digits and a value below 2^53, read from the
// 16 bytes that end at e (e >= 16): 1 and the exact double, or 0 for anything else.
static inline int vector_decimal(const uint8_t *t, size_t s, size_t e, double *out) {
    int neg = s < e && t[s] == '-';
    s += (size_t)neg;
    size_t n = e - s;
    if (n - 1 >= 16 || e < 16) return 0; // 1 <= n <= 16, all in the 16 bytes loaded
    cfusion_csv_u8x16 v;
    memcpy(&v, t + e - 16, 16);
    const cfusion_csv_u8x16 lane = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    uint32_t field = (0xFFFFu << (16 - n)) & 0xFFFFu; // the field's lanes, the last n
    cfusion_csv_u8x16 d = v - (uint8_t)'0';
    uint32_t digits = mask16(__builtin_convertvector(d < 10, cfusion_csv_b16)) & field;
    uint32_t dots = mask16(__builtin_convertvector(v == '.', cfusion_csv_b16)) & field;
    if ((digits | dots) != field || (dots & (dots - 1)) != 0 || digits == 0) return 0;
    // Digits only, the dot and the bytes before the field zeroed; the integer part moves one lane
    // up into the dot's place, so the 16 lanes read as one integer of up to 16 digits.
    cfusion_csv_u8x16 z = d & (cfusion_csv_u8x16)(d < 10) & (cfusion_csv_u8x16)(lane >= (uint8_t)(16 - n));
    int fraction = 0;
    if (dots) {
        int j = __builtin_ctz(dots);
        fraction = 15 - j;
        cfusion_csv_u8x16 up = __builtin_shufflevector(z, (cfusion_csv_u8x16){0}, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
        cfusion_csv_u8x16 below = (cfusion_csv_u8x16)(lane <= (uint8_t)j);
        z = (up & below) | (z & ~below);
    }
    cfusion_csv_u16x8 p = (cfusion_csv_u16x8)z;
    p = (p & 0xFF) * 10 + (p >> 8); // pairs of digits
    cfusion_csv_u32x4 q = (cfusion_csv_u32x4)p;
    q = (q & 0xFFFF) * 100 + (q >> 16); // groups of four
    cfusion_csv_u64x2 o = (cfusion_csv_u64x2)q;
    o = (o & 0xFFFFFFFFu) * 10000 + (o >> 32); // groups of eight
    uint64_t m = o[0] * 100000000u + o[1];
    if (m > (1ULL << 53)) return 0;
    double x = (double)m / powers_of_ten[fraction]; // both exact: one correctly rounded division
    *out = neg ? -x : x;
    return 1;
}

// Powers of ten for the short path, the second row negated: dividing by -10^k gives the sign for
// free, and "-0" still reads as -0.0.
static const double signed_powers_of_ten[2][8] = {
    {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7},
    {-1e0, -1e1, -1e2, -1e3, -1e4, -1e5, -1e6, -1e7},
};

// [s, e) as  ['-'] digit* ['.' digit*]  in at most 8 bytes after the sign, with 1 to 8 digits (the
// common short field), from the one 64-bit word that ends at e (e >= 8): 1 and the exact double,
// or 0 for anything else. Bytes are classified in the word itself (SWAR); the dot is taken out by
// moving the integer digits one byte up; the digits become an integer with three
// multiplications (the classic eight-digit SWAR step). At most 8 digits are below 2^53 and at most
// 7 are after the dot, so the one division by an exact power of ten is correctly rounded.
static inline int short_decimal(const uint8_t *t, size_t s, size_t e, double *out) {
    unsigned neg = t[s] == '-'; // t[s] is at worst the field's stop: s < e is checked through n
    size_t n = e - s - neg;
    if (n - 1 >= 8 || e < 8) return 0; // 1 <= n <= 8, all in the word loaded
    uint64_t w;
    memcpy(&w, t + e - 8, 8);
    const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
    // Digits become 0..9 and '.' 0x1E; the bytes before the field (the low 8 - n) become 0.
    uint64_t x = (w ^ (0x30 * ones)) & (~0ULL << (8 * (8 - n)));
    // Bytes of 10 or more (not a digit), exactly: such a byte sets its high bit in x + 0x76 or in
    // x itself. A carry out of a byte of 0x8A or more may flag the next one too, but then there are
    // two flags and the field is refused anyway.
    uint64_t other = ((x + 0x76 * ones) | x) & high;
    unsigned fraction = 0;
    if (other) {
        // One byte that is not a digit, and it is the dot, with a digit beside it.
        unsigned j = (unsigned)__builtin_ctzll(other) >> 3;
        if ((other & (other - 1)) != 0 || ((x >> (8 * j)) & 0xFF) != 0x1E || n == 1) return 0;
        fraction = 7 - j;
        uint64_t below = ~0ULL >> (8 * fraction); // the dot's byte and all before it
        x = (x & ~below) | ((x << 8) & below);    // the integer digits move up over the dot
    }
    uint64_t d = x * 10 + (x >> 8);
    d = (((d & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
         (((d >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >> 32;
    *out = (double)(int64_t)d / signed_powers_of_ten[neg][fraction]; // exact / exact: correctly rounded
    return 1;
}

// A wanted field that short_decimal did not take: longer plain fields in a vector register, then
// the exact path. Out of line, so that the row loop keeps its registers for the common case.
__attribute__((noinline)) static int other_field(const uint8_t *t, size_t s, size_t e, uint8_t delimiter, double *out) {
    return vector_decimal(t, s, e, out) || exact_field(t, s, e, delimiter, out);
}

// The stops (delimiters and '\n') from a line start on, one 64-byte mask at a time, taken in order:
// the bits of `mask` are the stops of [base, base + 64) not taken yet.
typedef struct stop_window {
    size_t base;
    uint64_t mask;
} stop_window;

// The next stop not taken: 1 and its position, or 0 when the text has no more.
static inline int next_stop(const uint8_t *t, size_t len, uint8_t delimiter, stop_window *w, size_t *e) {
    while (w->mask == 0) {
        w->base += 64;
        if (w->base >= len) return 0;
        w->mask = stops(t, len, w->base, delimiter);
    }
    *e = w->base + (size_t)__builtin_ctzll(w->mask);
    w->mask &= w->mask - 1;
    return 1;
}

// Rows from *p (a line start) until `capacity` rows are written or the text ends, walking from stop
// to stop. Returns 1 when it stopped at a row it is not sure of (left to scalar_row), 0 when it ran
// out of room or text.
static inline int vector_rows(const uint8_t *t, size_t len, size_t *pp, uint8_t delimiter, const int32_t *columns,
                              size_t column_count, double *out, size_t *row_lines, size_t *rowsp, size_t capacity,
                              size_t *linep) {
    size_t p = *pp, rows = *rowsp, line = *linep;
    stop_window w = {p, p < len ? stops(t, len, p, delimiter) : 0};
    int unsure = 0;
    for (; rows < capacity && p < len; rows++, line++) {
        uint8_t c = t[p];
        // Comment, blank or indented lines, and a row too near the text's start for the 8-byte
        // loads, are the scalar rows' business.
        if (space_class(c) || c == '#' || p < 8) {
            unsure = 1;
            break;
        }
        double *row = out + rows * column_count;
        size_t fs = p, e = p;
        int32_t field = 0;
        for (size_t k = 0; k < column_count; k++) {
            while (field < columns[k]) { // skipped fields: only their stops
                if (!next_stop(t, len, delimiter, &w, &e) || t[e] == '\n') goto unsure;
                fs = e + 1;
                field++;
            }
            if (!next_stop(t, len, delimiter, &w, &e)) goto unsure;
            size_t fe = e;
            if (t[e] == '\n') {
                if (k + 1 < column_count) goto unsure; // a wanted field is missing
                if (fe > fs && t[fe - 1] == '\r') fe--;
            }
            if (!short_decimal(t, fs, fe, row + k) && !other_field(t, fs, fe, delimiter, row + k)) goto unsure;
            fs = e + 1;
            field++;
        }
        while (t[e] != '\n') { // the rest of the line
            if (!next_stop(t, len, delimiter, &w, &e)) goto unsure;
        }
        row_lines[rows] = line;
        p = e + 1;
        continue;
    unsure:
        unsure = 1;
        break;
    }
    *pp = p;
    *rowsp = rows;
    *linep = line;
    return unsure;
}

static cfusion_csv_result parse_rows(const uint8_t *t, size_t len, size_t p, size_t line, uint8_t delimiter,
                                     const int32_t *columns, size_t column_count, double *out,
                                     size_t *row_lines, size_t capacity_rows, int vector) {
    cfusion_csv_result res = {0, 0, 0, 0, 0, 0, CFUSION_CSV_END};
    size_t rows = 0;
    // A delimiter that also ends lines would make stops ambiguous: the scalar rows handle it.
    if (delimiter == '\n' || delimiter == '\r') vector = 0;
    while (p < len) {
        if (rows == capacity_rows) {
            res.status = CFUSION_CSV_FULL;
            break;
        }
        if (vector && !vector_rows(t, len, &p, delimiter, columns, column_count, out, row_lines, &rows, capacity_rows,
                                   &line))
            continue; // full or at the end
        size_t next = len, bad_end = 0;
        int r = scalar_row(t, len, p, delimiter, columns, column_count, out + rows * column_count, &next, &bad_end);
        if (r == ROW_BAD) {
            res.status = CFUSION_CSV_BAD_ROW;
            res.bad_start = p;
            res.bad_end = bad_end;
            res.bad_line = line;
        } else if (r == ROW_GOOD) {
            row_lines[rows++] = line;
        }
        line++;
        p = next;
        if (r == ROW_BAD) break;
    }
    res.rows = rows;
    res.next = p;
    res.next_line = line;
    return res;
}

cfusion_csv_result cfusion_csv_parse_rows_kernel(const void *text, size_t length, size_t offset, size_t line,
                                                 uint8_t delimiter, const int32_t *columns, size_t column_count,
                                                 double *out, size_t *row_lines, size_t capacity_rows,
                                                 cfusion_csv_kernel kernel) {
    if (offset > length) offset = length;
    return parse_rows((const uint8_t *)text, length, offset, line, delimiter, columns, column_count, out, row_lines,
                      capacity_rows, kernel != CFUSION_CSV_KERNEL_SCALAR);
}

cfusion_csv_result cfusion_csv_parse_rows(const void *text, size_t length, size_t offset, size_t line,
                                          uint8_t delimiter, const int32_t *columns, size_t column_count,
                                          double *out, size_t *row_lines, size_t capacity_rows) {
    return cfusion_csv_parse_rows_kernel(text, length, offset, line, delimiter, columns, column_count, out,
                                         row_lines, capacity_rows, CFUSION_CSV_KERNEL_AUTO);
}

int cfusion_csv_parse_double(const void *text, size_t length, double *out) {
    const uint8_t *t = (const uint8_t *)text;
    size_t p = 0;
    double v;
    if (fast_decimal(t, length, &p, &v) == FAST_OK && p == length) {
        *out = v;
        return 1;
    }
    return strtod_exact(t, length, out);
}

size_t cfusion_csv_count_lines(const void *text, size_t length) {
    // 64 bytes to one mask and a popcount: the plain byte loop took a third of the parse's time.
    const uint8_t *t = (const uint8_t *)text;
    size_t n = 0, i = 0;
    for (; i + 64 <= length; i += 64) {
        cfusion_csv_u8x64 v;
        memcpy(&v, t + i, 64);
        n += (size_t)__builtin_popcountll(mask64(__builtin_convertvector(v == '\n', cfusion_csv_b64)));
    }
    for (; i < length; i++) n += t[i] == '\n';
    return n;
}
