// FFmpeg's libraries loaded on first use, not at start: linked, they and what they need (about
// 130 libraries: every codec Debian builds FFmpeg with) were loaded and their symbols bound
// before main in every run of poiar, about 50 ms and half of a `poiar pose`'s start-up, which
// never decodes a video (docs/fusion-performance.md). Each function poiar calls is defined here
// with the header's own signature (the compiler checks it against the declaration) and calls
// the library's through a pointer resolved once.
#include "shim.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

// The library files of the major versions the headers describe (what linking would record).
#ifdef __APPLE__
#define POIAR_FFMPEG_FILE(name, major) "lib" name "." AV_STRINGIFY(major) ".dylib"
#else
#define POIAR_FFMPEG_FILE(name, major) "lib" name ".so." AV_STRINGIFY(major)
#endif

// Every FFmpeg function poiar calls: the library that defines it, its return type, name,
// parameters and the arguments passed on.
#define POIAR_FFMPEG_FUNCTIONS(VALUE, VOID) \
    VALUE(avformat, int, av_find_best_stream, (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags), (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    VALUE(avformat, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    VALUE(avformat, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    VALUE(avformat, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), (s, stream_index, timestamp, flags)) \
    VALUE(avformat, uint8_t *, av_stream_get_side_data, (const AVStream *stream, enum AVPacketSideDataType type, size_t *size), (stream, type, size)) \
    VALUE(avformat, int, av_write_trailer, (AVFormatContext *s), (s)) \
    VALUE(avformat, int, avformat_alloc_output_context2, (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), (ctx, oformat, format_name, filename)) \
    VOID(avformat, void, avformat_close_input, (AVFormatContext **s), (s)) \
    VALUE(avformat, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    VALUE(avformat, int, avformat_flush, (AVFormatContext *s), (s)) \
    VOID(avformat, void, avformat_free_context, (AVFormatContext *s), (s)) \
    VALUE(avformat, int, avformat_index_get_entries_count, (const AVStream *st), (st)) \
    VALUE(avformat, const AVIndexEntry *, avformat_index_get_entry, (AVStream *st, int idx), (st, idx)) \
    VALUE(avformat, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    VALUE(avformat, int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), (ps, url, fmt, options)) \
    VALUE(avformat, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    VALUE(avformat, int, avio_closep, (AVIOContext **s), (s)) \
    VALUE(avformat, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags)) \
    VALUE(avcodec, AVPacket *, av_packet_alloc, (void), ()) \
    VOID(avcodec, void, av_packet_free, (AVPacket **pkt), (pkt)) \
    VOID(avcodec, void, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst)) \
    VOID(avcodec, void, av_packet_unref, (AVPacket *pkt), (pkt)) \
    VALUE(avcodec, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    VALUE(avcodec, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    VALUE(avcodec, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name)) \
    VOID(avcodec, void, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx)) \
    VOID(avcodec, void, avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    VALUE(avcodec, const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    VALUE(avcodec, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    VALUE(avcodec, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec), (par, codec)) \
    VALUE(avcodec, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    VALUE(avcodec, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    VALUE(avcodec, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt)) \
    VALUE(avcodec, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame)) \
    VALUE(avcodec, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    VOID(swscale, void, sws_freeContext, (struct SwsContext *swsContext), (swsContext)) \
    VALUE(swscale, const int *, sws_getCoefficients, (int colorspace), (colorspace)) \
    VALUE(swscale, struct SwsContext *, sws_getContext, (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    VALUE(swscale, int, sws_scale, (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH, uint8_t *const dst[], const int dstStride[]), (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride)) \
    VALUE(swscale, int, sws_setColorspaceDetails, (struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4], int dstRange, int brightness, int contrast, int saturation), (c, inv_table, srcRange, table, dstRange, brightness, contrast, saturation)) \
    VALUE(avutil, AVRational, av_d2q, (double d, int max), (d, max)) \
    VOID(avutil, void, av_dict_free, (AVDictionary **m), (m)) \
    VALUE(avutil, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags)) \
    VALUE(avutil, double, av_display_rotation_get, (const int32_t matrix[9]), (matrix)) \
    VALUE(avutil, AVFrame *, av_frame_alloc, (void), ()) \
    VOID(avutil, void, av_frame_free, (AVFrame **frame), (frame)) \
    VALUE(avutil, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    VALUE(avutil, int, av_frame_make_writable, (AVFrame *frame), (frame)) \
    VALUE(avutil, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    VOID(avutil, void, av_log_set_level, (int level), (level)) \
    VALUE(avutil, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    VALUE(avutil, int, av_tx_init, (AVTXContext **ctx, av_tx_fn *tx, enum AVTXType type, int inv, int len, const void *scale, uint64_t flags), (ctx, tx, type, inv, len, scale, flags)) \
    VOID(avutil, void, av_tx_uninit, (AVTXContext **ctx), (ctx))


#define POIAR_POINTER(lib, ret, name, params, args) __typeof__(name) *name;
static struct {
    POIAR_FFMPEG_FUNCTIONS(POIAR_POINTER, POIAR_POINTER)
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];  // empty once everything is resolved

static void *open_library(const char *file) {
    void *handle = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!handle && !failure[0]) {
        const char *reason = dlerror();
        snprintf(failure, sizeof failure, "FFmpeg could not be loaded: %s (install FFmpeg's libavformat, libavcodec, libswscale and libavutil)",
                 reason ? reason : file);
    }
    return handle;
}

static void resolve(void *library, void **slot, const char *name) {
    if (!library) return;
    *slot = dlsym(library, name);
    if (!*slot && !failure[0]) snprintf(failure, sizeof failure, "FFmpeg could not be loaded: its library has no %s", name);
}

static void load(void) {
    void *avutil = open_library(POIAR_FFMPEG_FILE("avutil", LIBAVUTIL_VERSION_MAJOR));
    void *swscale = open_library(POIAR_FFMPEG_FILE("swscale", LIBSWSCALE_VERSION_MAJOR));
    void *avcodec = open_library(POIAR_FFMPEG_FILE("avcodec", LIBAVCODEC_VERSION_MAJOR));
    void *avformat = open_library(POIAR_FFMPEG_FILE("avformat", LIBAVFORMAT_VERSION_MAJOR));
#define POIAR_RESOLVE(lib, ret, name, params, args) resolve(lib, (void **)&real.name, #name);
    POIAR_FFMPEG_FUNCTIONS(POIAR_RESOLVE, POIAR_RESOLVE)
}

int poiar_ffmpeg_load(char *message, size_t size) {
    pthread_once(&once, load);
    if (!failure[0]) return 0;
    snprintf(message, size, "%s", failure);
    return -1;
}

// A call that no poiar_ffmpeg_load guarded (every path that opens or writes a video does):
// the reason, and the run ends as when the libraries were linked and missing.
static void require(void) {
    char message[512];
    if (poiar_ffmpeg_load(message, sizeof message) == 0) return;
    fprintf(stderr, "poiar: %s\n", message);
    exit(1);
}

#define POIAR_FORWARD_VALUE(lib, ret, name, params, args) ret name params { require(); return real.name args; }
#define POIAR_FORWARD_VOID(lib, ret, name, params, args) ret name params { require(); real.name args; }
POIAR_FFMPEG_FUNCTIONS(POIAR_FORWARD_VALUE, POIAR_FORWARD_VOID)
