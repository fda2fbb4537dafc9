/*
 * poiar's bridge to libpng (classic API).
 *
 * libpng reports errors by longjmp, which Swift cannot catch: every function here
 * that calls into libpng sets its own setjmp point, turns the error into a return
 * code plus a message in `poiar_png_error`, and frees what it allocated.
 * Warnings are silenced (they are about ancillary data poiar does not use).
 *
 * Pixel layout on both sides: 4 bytes per pixel in the order B, G, R, A, which is
 * Cairo's CAIRO_FORMAT_ARGB32 on little-endian machines.
 */
#ifndef POIAR_CPNG_SHIM_H
#define POIAR_CPNG_SHIM_H

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

typedef struct poiar_png_error {
    char message[240];
} poiar_png_error;

static inline void poiar_png_set_message(poiar_png_error *error, const char *message) {
    if (error) snprintf(error->message, sizeof error->message, "%s", message);
}

static inline void poiar_png_error_fn(png_structp png, png_const_charp message) {
    poiar_png_set_message((poiar_png_error *)png_get_error_ptr(png), message);
    png_longjmp(png, 1);
}

static inline void poiar_png_warning_fn(png_structp png, png_const_charp message) {
    (void)png; (void)message;
}

/* ---------------------------------------------------------------- decoding */

/* A PNG held in memory, read front to back. */
typedef struct poiar_png_source {
    const unsigned char *data;
    size_t size;
    size_t offset;
} poiar_png_source;

static inline void poiar_png_read_fn(png_structp png, png_bytep out, size_t length) {
    poiar_png_source *source = (poiar_png_source *)png_get_io_ptr(png);
    if (source->size - source->offset < length) {
        png_error(png, "file is truncated");
    }
    memcpy(out, source->data + source->offset, length);
    source->offset += length;
}

/* Decoding state; keep it at a fixed address between begin and finish. */
typedef struct poiar_png_decoder {
    png_structp png;
    png_infop info;
    poiar_png_source source;
    poiar_png_error error;
    unsigned width;
    unsigned height;
} poiar_png_decoder;

/* Frees the libpng state (safe to call more than once). */
static inline void poiar_png_decoder_end(poiar_png_decoder *decoder) {
    if (decoder->png) png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    decoder->png = NULL;
    decoder->info = NULL;
}

/*
 * Reads the header of the PNG in data[0..<size] (which must stay alive until
 * poiar_png_decoder_finish or _end) and fills width and height.
 * Returns 0, or -1 with decoder->error set and the decoder already ended.
 */
static inline int poiar_png_decoder_begin(poiar_png_decoder *decoder,
                                          const unsigned char *data, size_t size) {
    memset(decoder, 0, sizeof *decoder);
    decoder->source.data = data;
    decoder->source.size = size;
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &decoder->error,
                                          poiar_png_error_fn, poiar_png_warning_fn);
    if (!decoder->png) {
        poiar_png_set_message(&decoder->error, "out of memory");
        return -1;
    }
    decoder->info = png_create_info_struct(decoder->png);
    if (!decoder->info) {
        poiar_png_set_message(&decoder->error, "out of memory");
        poiar_png_decoder_end(decoder);
        return -1;
    }
    if (setjmp(png_jmpbuf(decoder->png))) {
        poiar_png_decoder_end(decoder);
        return -1;
    }
    png_set_read_fn(decoder->png, &decoder->source, poiar_png_read_fn);
    png_read_info(decoder->png, decoder->info);
    decoder->width = png_get_image_width(decoder->png, decoder->info);
    decoder->height = png_get_image_height(decoder->png, decoder->info);
    return 0;
}

/*
 * Decodes the image into `pixels` (height rows of `stride` bytes, stride >= width*4)
 * as 8-bit B, G, R, A with colour premultiplied by alpha. Any PNG colour type, bit
 * depth and interlacing is accepted; 16-bit samples are rounded (not truncated) to 8.
 * Always ends the decoder. Returns 0, or -1 with decoder->error set.
 */
static inline int poiar_png_decoder_finish(poiar_png_decoder *decoder,
                                           unsigned char *pixels, size_t stride) {
    png_structp png = decoder->png;
    png_infop info = decoder->info;
    unsigned width = decoder->width, height = decoder->height;
    png_bytep *rows = (png_bytep *)malloc((size_t)height * sizeof(png_bytep));
    if (!rows) {
        poiar_png_set_message(&decoder->error, "out of memory");
        poiar_png_decoder_end(decoder);
        return -1;
    }
    for (unsigned y = 0; y < height; y++) rows[y] = pixels + (size_t)y * stride;
    if (setjmp(png_jmpbuf(png))) {
        free(rows);
        poiar_png_decoder_end(decoder);
        return -1;
    }
    png_set_expand(png);                           /* palette, low-bit grey, tRNS -> 8-bit + alpha */
    png_set_scale_16(png);                         /* 16 -> 8 bits, rounded */
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER); /* opaque alpha where the file has none */
    png_set_bgr(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)width * 4) {
        png_error(png, "unsupported pixel layout after conversion");
    }
    png_read_image(png, rows);
    /* The trailing chunks (after the image data) are not read: nothing there matters. */
    free(rows);
    poiar_png_decoder_end(decoder);

    for (unsigned y = 0; y < height; y++) {
        unsigned char *p = pixels + (size_t)y * stride;
        for (unsigned x = 0; x < width; x++, p += 4) {
            unsigned a = p[3];
            if (a == 255) continue;
            p[0] = (unsigned char)((p[0] * a + 127) / 255);
            p[1] = (unsigned char)((p[1] * a + 127) / 255);
            p[2] = (unsigned char)((p[2] * a + 127) / 255);
        }
    }
    return 0;
}

/* Encoding is in CDeflate/shim.h (libdeflate compresses faster than libpng's zlib). */

#endif /* POIAR_CPNG_SHIM_H */
