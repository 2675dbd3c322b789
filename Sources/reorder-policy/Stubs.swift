import ArgumentParser
struct Test: ParsableCommand { func run() throws {} }
struct Explain: ParsableCommand { func run() throws {} }
struct Schema: ParsableCommand { func run() throws {} }
