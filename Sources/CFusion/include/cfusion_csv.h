// CSV number parsing: rows of a whole text in memory -> doubles of chosen columns.
//
// A line ends at '\n' (one '\r' before it, or at the end of the text, is dropped). A line that is
// blank (only ' ', '\t', '\r', '\v', '\f') or starts with '#' is skipped. A field is the text between
// delimiters; ' ' and '\t' around it are ignored (unless one of them is the delimiter). A field is
// a number exactly when strtod in the C locale reads all of it, and its value is strtod's (correctly
// rounded): plain decimals are converted here, anything else (long mantissas, big exponents, hex,
// "inf", "nan") by strtod itself. Columns that are not asked for are not looked at.
//
// The parser never allocates on the fast path and never reads outside [text, text + length).
#ifndef CFUSION_CSV_H
#define CFUSION_CSV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why `cfusion_csv_parse_rows` returned.
typedef enum cfusion_csv_status {
    /// The whole text is read.
    CFUSION_CSV_END = 0,
    /// `capacity_rows` rows are written; call again from `next`.
    CFUSION_CSV_FULL = 1,
    /// The row in bad_start..<bad_end was not written: a wanted column is missing, is not a number,
    /// or is not finite. The caller decides what to say about it and goes on from `next`.
    CFUSION_CSV_BAD_ROW = 2,
} cfusion_csv_status;

typedef struct cfusion_csv_result {
    /// Rows written to `out`, all before the bad row if there is one.
    size_t rows;
    /// Where to go on: the start of a line (or the end of the text).
    size_t next;
    /// The 1-based line number of the line at `next`.
    size_t next_line;
    /// CFUSION_CSV_BAD_ROW: the row's bytes without its line ending, and its 1-based line number.
    size_t bad_start, bad_end, bad_line;
    /// A `cfusion_csv_status` value.
    int32_t status;
} cfusion_csv_result;

/// Parses rows from `offset` (a line start whose 1-based number is `line`) into `out`, row-major:
/// row r holds the values of `columns` (0-based, strictly increasing, `column_count` >= 1) at
/// out[r * column_count ...], and row r's 1-based line number at row_lines[r]. Stops at the end,
/// when `capacity_rows` rows are written, or at the first bad row.
cfusion_csv_result cfusion_csv_parse_rows(const void *text, size_t length, size_t offset, size_t line,
                                          uint8_t delimiter, const int32_t *columns, size_t column_count,
                                          double *out, size_t *row_lines, size_t capacity_rows);

/// Which implementation runs; both give identical results (the tests check this).
typedef enum cfusion_csv_kernel {
    /// The fastest here (the vector kernel).
    CFUSION_CSV_KERNEL_AUTO = 0,
    /// Byte by byte: the reference the vector kernel falls back to for any row it is unsure of.
    CFUSION_CSV_KERNEL_SCALAR = 1,
    /// Stops taken in order from 64-byte masks; plain fields converted from one 64-bit word (up to 8 bytes
    /// after the sign) or 16 bytes at a time (clang vector extensions: SSE2 on x86-64, NEON on arm64).
    CFUSION_CSV_KERNEL_VECTOR = 2,
} cfusion_csv_kernel;

/// The same with a chosen implementation, for tests and benchmarks.
cfusion_csv_result cfusion_csv_parse_rows_kernel(const void *text, size_t length, size_t offset, size_t line,
                                                 uint8_t delimiter, const int32_t *columns, size_t column_count,
                                                 double *out, size_t *row_lines, size_t capacity_rows,
                                                 cfusion_csv_kernel kernel);

/// Reads one whole field as strtod would in the C locale, without trimming (leading whitespace is
/// refused, as Swift's `Double(String)` refuses it). Returns 1 and sets *out when all `length` bytes
/// form a number (which may be inf or nan), else 0.
int cfusion_csv_parse_double(const void *text, size_t length, double *out);

/// Counts '\n' bytes; one more is an upper bound on a text's rows, for reserving space.
size_t cfusion_csv_count_lines(const void *text, size_t length);

#ifdef __cplusplus
}
#endif

#endif
