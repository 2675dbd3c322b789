// The baseline for streamed batch checking (moves-memory.sh): libyaml alone, reading a file
// through its own FILE* input and counting every event. usage: YAMLParseFile FILE
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    FILE *file = fopen(argv[1], "rb");
    if (!file) return 2;
    yaml_parser_t parser;
    yaml_event_t event;
    long count = 0;
    if (!yaml_parser_initialize(&parser)) return 1;
    yaml_parser_set_input_file(&parser, file);
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) return 1;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        count++;
        if (done) break;
    }
    yaml_parser_delete(&parser);
    fclose(file);
    printf("%ld events\n", count);
    return 0;
}
