//! `ponder-cli`: Ponder's core from the command line, for scripts and for tests.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ponder_core::{About, DataPaths};

#[derive(Debug, Parser)]
#[command(
    name = "ponder-cli",
    version,
    about = "Ponder's core from the command line"
)]
struct Cli {
    /// Use this data directory instead of the one the desktop app uses.
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the version and where data is kept.
    About {
        /// Print one JSON object instead of lines of text.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("ponder-cli: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let paths = match cli.data_dir {
        Some(dir) => DataPaths::at(dir),
        None => DataPaths::for_current_user()?,
    };
    match cli.command {
        Command::About { json } => {
            let about = About::new(&paths);
            if json {
                println!("{}", serde_json::to_string(&about)?);
            } else {
                println!("{} {}", about.name, about.version);
                println!("data directory: {}", about.data_dir);
                println!("database:       {}", about.database_path);
            }
        }
    }
    Ok(())
}
