// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - instantiates the trace events of trace-events/f2fs.h.
 *
 * CREATE_TRACE_POINTS is defined here and nowhere else, so the event
 * bodies are generated once for the module; every other file includes the
 * header only for the trace_f2fs_*() calls, which cost a static branch
 * while tracing is off.
 */
#include "f2fs.h"

#define CREATE_TRACE_POINTS
#include "../trace-events/f2fs.h"
