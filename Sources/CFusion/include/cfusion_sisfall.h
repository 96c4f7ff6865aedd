// SisFall text parsing: a whole trial file in memory -> rows of nine Int16 values.
//
// Grammar of one row (one line):   field ',' field ... field ';' [spaces] ['\r'] ('\n' | end of text)
// with exactly nine fields, each    [spaces] ['-' | '+'] digits [spaces]   (spaces: ' ' or '\t')
// and a value in -32768...32767. Lines that hold only spaces, tabs or '\r' are accepted at the end
// of the text (some SisFall files end in "\r\n  "); a blank line followed by more rows is an error.
//
// Output is row-major: row r, column c (0-based) is out[r * 9 + c]; columns are ADXL345 x,y,z,
// ITG3200 x,y,z, MMA8451Q x,y,z in SisFall. The parser never allocates and never reads outside
// [text, text + length).
#ifndef CFUSION_SISFALL_H
#define CFUSION_SISFALL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Values per SisFall row.
#define CFUSION_SISFALL_COLUMNS 9

/// Why parsing stopped; `CFUSION_SISFALL_OK` when the whole text was read.
typedef enum cfusion_sisfall_status {
    CFUSION_SISFALL_OK = 0,
    /// The line ends (or a ';' comes) before the ninth field.
    CFUSION_SISFALL_TOO_FEW_FIELDS = 1,
    /// A ',' follows the ninth field.
    CFUSION_SISFALL_TOO_MANY_FIELDS = 2,
    /// A character that the grammar does not allow at that place.
    CFUSION_SISFALL_BAD_CHARACTER = 3,
    /// Two separators with nothing but spaces between them.
    CFUSION_SISFALL_EMPTY_FIELD = 4,
    /// A value outside -32768...32767.
    CFUSION_SISFALL_OUT_OF_RANGE = 5,
    /// The ninth field is not followed by ';' before the end of the line.
    CFUSION_SISFALL_MISSING_SEMICOLON = 6,
    /// A blank line with rows after it.
    CFUSION_SISFALL_EMPTY_LINE = 7,
    /// More rows than `capacity_rows`.
    CFUSION_SISFALL_CAPACITY = 8,
} cfusion_sisfall_status;

/// Which implementation runs; all give identical results (the tests check this).
typedef enum cfusion_sisfall_kernel {
    /// The fastest available here (the vector kernel).
    CFUSION_SISFALL_KERNEL_AUTO = 0,
    /// Row-by-row scalar parser only: the reference the others fall back to.
    CFUSION_SISFALL_KERNEL_SCALAR = 1,
    /// Stops found 8 bytes at a time in uint64 words (any CPU, no vector unit needed).
    CFUSION_SISFALL_KERNEL_SWAR = 2,
    /// Stops found 64 bytes at a time with clang vector extensions (SSE2 on x86-64, NEON on arm64).
    CFUSION_SISFALL_KERNEL_VECTOR = 3,
} cfusion_sisfall_kernel;

typedef struct cfusion_sisfall_result {
    /// Complete rows written to `out` (on an error, the rows before the malformed one).
    size_t rows;
    /// 1-based line of the first malformed row; 0 when `status` is OK.
    size_t line;
    /// 1-based byte column in that line where the problem was found; 0 when OK.
    size_t column;
    /// 1-based field (1...9) that the problem concerns; 10 for a field after the ninth; 0 when none.
    int32_t field;
    /// A `cfusion_sisfall_status` value.
    int32_t status;
} cfusion_sisfall_result;

/// An upper bound on the rows that `length` bytes can hold (the shortest row, "0,0,0,0,0,0,0,0,0;\n",
/// is 19 bytes), so a buffer of `cfusion_sisfall_max_rows(length) * 9` values always suffices.
size_t cfusion_sisfall_max_rows(size_t length);

/// Parses `text` into `out` (row-major, 9 values per row, room for `capacity_rows` rows).
cfusion_sisfall_result cfusion_sisfall_parse(const void *text, size_t length, int16_t *out, size_t capacity_rows);

/// The same with a chosen implementation, for tests and benchmarks.
cfusion_sisfall_result cfusion_sisfall_parse_kernel(
    const void *text, size_t length, int16_t *out, size_t capacity_rows, cfusion_sisfall_kernel kernel);

/// Counts '\n' bytes (the newline-terminated lines of a text).
size_t cfusion_sisfall_count_newlines(const void *text, size_t length);

/// A short English reason for a status, e.g. "missing ';' after the ninth field". Static storage.
const char *cfusion_sisfall_status_text(int32_t status);

#ifdef __cplusplus
}
#endif

#endif
