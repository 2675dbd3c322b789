import ArgumentParser
struct Schema: ParsableCommand { func run() throws {} }
