#ifndef CZSTD_SHIM_H
#define CZSTD_SHIM_H
#define ZSTD_STATIC_LINKING_ONLY_NOT_USED 1
#include <zstd.h>
#endif
