/*
 * poiar's PNG writer: the PNG container written here, the image data compressed by
 * libdeflate (zlib format). libdeflate compresses a whole buffer at once, about three
 * times as fast as zlib at the same level and a little smaller (docs/rendering-performance.md);
 * libpng can only drive zlib, so the few chunks of a PNG are written directly (PNG spec,
 * ISO/IEC 15948: signature, IHDR, IDAT, IEND, each chunk with its CRC-32).
 *
 * Input pixels: 4 bytes per pixel in the order B, G, R, A (Cairo's ARGB32 on
 * little-endian machines), NOT premultiplied.
 */
#ifndef POIAR_CDEFLATE_SHIM_H
#define POIAR_CDEFLATE_SHIM_H

#include <libdeflate.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Largest IDAT chunk written (the format allows 2^31 - 1; smaller chunks suit streaming readers). */
#define POIAR_PNG_IDAT_MAX ((size_t)1 << 20)

static inline void poiar_png_put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);  p[3] = (unsigned char)v;
}

/* Writes one chunk; returns 0 or -1 (errno set by stdio). */
static inline int poiar_png_chunk(FILE *file, const char type[4], const unsigned char *data, size_t length) {
    unsigned char head[8], tail[4];
    poiar_png_put32(head, (uint32_t)length);
    memcpy(head + 4, type, 4);
    uint32_t crc = libdeflate_crc32(0, type, 4);
    if (length) crc = libdeflate_crc32(crc, data, length);
    poiar_png_put32(tail, crc);
    if (fwrite(head, 1, 8, file) != 8) return -1;
    if (length && fwrite(data, 1, length, file) != length) return -1;
    return fwrite(tail, 1, 4, file) == 4 ? 0 : -1;
}

static inline void poiar_png_message(char *message, size_t size, const char *text) {
    if (message && size) snprintf(message, size, "%s", text);
}

/*
 * Writes `pixels` (height rows of `stride` bytes, B, G, R, A, not premultiplied) as a
 * PNG to a new file at `path`: 8-bit RGB (colour type 2) when has_alpha == 0, the alpha
 * byte dropped, else 8-bit RGBA (colour type 6). Every row is filtered with Up (None at
 * level 0: nothing to gain), which on both camera stills and drawn frames compresses as well
 * as per-row choices between filters and costs least. `level` is the compression level,
 * 0 (stored) ... 9 (zlib's scale; libdeflate goes to 12).
 * Returns 0, or -1 with `message` set; on failure the file may exist partially written
 * (the caller writes to a temporary path).
 */
static inline int poiar_png_write_deflate(const char *path, unsigned width, unsigned height,
                                          size_t stride, const unsigned char *pixels,
                                          int has_alpha, int level, char *message, size_t message_size) {
    const size_t bpp = has_alpha ? 4 : 3;
    const size_t row_bytes = (size_t)width * bpp;
    if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu
        || row_bytes / bpp != width || (row_bytes + 1) > SIZE_MAX / height) {
        poiar_png_message(message, message_size, "image too large for PNG");
        return -1;
    }
    const size_t raw_size = (row_bytes + 1) * (size_t)height;
    unsigned char *raw = (unsigned char *)malloc(raw_size);
    unsigned char *rows = (unsigned char *)calloc(2, row_bytes);  /* previous and current row, RGB(A) */
    if (!raw || !rows) {
        free(raw); free(rows);
        poiar_png_message(message, message_size, "out of memory");
        return -1;
    }
    unsigned char *prev = rows, *cur = rows + row_bytes;
    const int up = level > 0;
    for (unsigned y = 0; y < height; y++) {
        const unsigned char *s = pixels + (size_t)y * stride;
        unsigned char *out = raw + (size_t)y * (row_bytes + 1);
        *out++ = up ? 2 : 0;
        if (has_alpha) {
            for (unsigned x = 0; x < width; x++, s += 4) {
                unsigned char *c = cur + (size_t)x * 4;
                c[0] = s[2]; c[1] = s[1]; c[2] = s[0]; c[3] = s[3];
            }
        } else {
            for (unsigned x = 0; x < width; x++, s += 4) {
                unsigned char *c = cur + (size_t)x * 3;
                c[0] = s[2]; c[1] = s[1]; c[2] = s[0];
            }
        }
        if (up) {
            for (size_t i = 0; i < row_bytes; i++) out[i] = (unsigned char)(cur[i] - prev[i]);
        } else {
            memcpy(out, cur, row_bytes);
        }
        unsigned char *t = prev; prev = cur; cur = t;
    }
    free(rows);

    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level < 0 ? 0 : level > 12 ? 12 : level);
    if (!compressor) {
        free(raw);
        poiar_png_message(message, message_size, "out of memory (compressor)");
        return -1;
    }
    size_t bound = libdeflate_zlib_compress_bound(compressor, raw_size);
    unsigned char *compressed = (unsigned char *)malloc(bound);
    size_t compressed_size = compressed ? libdeflate_zlib_compress(compressor, raw, raw_size, compressed, bound) : 0;
    libdeflate_free_compressor(compressor);
    free(raw);
    if (compressed_size == 0) {
        free(compressed);
        poiar_png_message(message, message_size, compressed ? "compression failed" : "out of memory");
        return -1;
    }

    FILE *file = fopen(path, "wb");
    if (!file) {
        poiar_png_message(message, message_size, strerror(errno));
        free(compressed);
        return -1;
    }
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    unsigned char ihdr[13];
    poiar_png_put32(ihdr, width);
    poiar_png_put32(ihdr + 4, height);
    ihdr[8] = 8;                       /* bit depth */
    ihdr[9] = has_alpha ? 6 : 2;       /* colour type: RGBA or RGB */
    ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;  /* deflate, adaptive filtering (per-row type), no interlace */
    int failed = fwrite(signature, 1, 8, file) != 8 || poiar_png_chunk(file, "IHDR", ihdr, 13) != 0;
    for (size_t offset = 0; !failed && offset < compressed_size; offset += POIAR_PNG_IDAT_MAX) {
        size_t n = compressed_size - offset < POIAR_PNG_IDAT_MAX ? compressed_size - offset : POIAR_PNG_IDAT_MAX;
        failed = poiar_png_chunk(file, "IDAT", compressed + offset, n) != 0;
    }
    failed = failed || poiar_png_chunk(file, "IEND", NULL, 0) != 0;
    free(compressed);
    failed = failed || fflush(file) != 0 || ferror(file);
    int saved_errno = errno;
    if (fclose(file) != 0 && !failed) {
        failed = 1;
        saved_errno = errno;
    }
    if (failed) {
        poiar_png_message(message, message_size, strerror(saved_errno ? saved_errno : EIO));
        return -1;
    }
    return 0;
}

#endif /* POIAR_CDEFLATE_SHIM_H */
