// FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil; FFmpeg 5.1 on Debian 12),
// with the few macros Swift cannot import as small inline functions. The functions poiar calls
// are defined in FFmpegLibraries.c, which loads the libraries on the first call.
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/tx.h>
#include <errno.h>

/// Loads FFmpeg's four libraries if they are not loaded yet: 0 when they are, otherwise -1
/// with what failed (the library's file and the loader's reason) in `message`.
int poiar_ffmpeg_load(char *message, size_t size);

/// AVERROR(EAGAIN): the codec wants more input (or output drained) first.
static inline int poiar_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: the end of the stream.
static inline int poiar_averror_eof(void) { return AVERROR_EOF; }
/// AV_NOPTS_VALUE: no timestamp.
static inline int64_t poiar_av_nopts_value(void) { return AV_NOPTS_VALUE; }
/// av_err2str needs a compound literal Swift cannot make: the message into `buffer`.
static inline const char *poiar_av_error_text(int code, char *buffer, size_t size) {
    return av_make_error_string(buffer, size, code);
}
