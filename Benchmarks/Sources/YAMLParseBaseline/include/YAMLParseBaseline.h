#ifndef YAML_PARSE_BASELINE_H
#define YAML_PARSE_BASELINE_H
#include <stddef.h>

/// Parses `length` bytes with libyaml's event API and returns the number of events,
/// or -1 on a parse error. Nothing else: the cost of parsing, as a baseline.
long yaml_parse_baseline_count_events(const unsigned char *bytes, size_t length);

#endif
