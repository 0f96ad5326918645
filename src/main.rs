//! The `shashki` binary: the game with no arguments, command-line tools otherwise.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(shashki::cli::run(&args));
}
