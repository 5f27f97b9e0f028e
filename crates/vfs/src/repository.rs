//! Where a repository starts: the one answer for every crate that stops a
//! search there (the configuration's lookup) or names files from there
//! (the paths CI services read, `--shard`'s units).

use camino::Utf8Path;

/// Whether `dir` is a repository's root: it holds a `.git` (a directory,
/// or the file a worktree or a submodule has).
pub fn is_repository_root(dir: &Utf8Path) -> bool {
    dir.join(".git").exists()
}

/// The nearest directory at or above `dir` that is a repository's root
/// ([`is_repository_root`]), if any. `dir` should be absolute, so that the
/// search does not stop at the top of a relative path.
pub fn repository_root(dir: &Utf8Path) -> Option<&Utf8Path> {
    dir.ancestors().find(|ancestor| is_repository_root(ancestor))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearest_directory_with_a_git_entry_is_the_root() {
        let temp = tempfile::tempdir().expect("a temporary directory");
        let top = Utf8Path::from_path(temp.path()).expect("a UTF-8 path");
        std::fs::create_dir_all(top.join("repo/.git")).expect("mkdir");
        std::fs::create_dir_all(top.join("repo/worktree/a")).expect("mkdir");
        std::fs::write(top.join("repo/worktree/.git"), "gitdir: ../.git\n").expect("write");
        assert_eq!(repository_root(&top.join("repo/worktree/a")), Some(top.join("repo/worktree").as_path()));
        assert_eq!(repository_root(&top.join("repo")), Some(top.join("repo").as_path()));
        assert!(!is_repository_root(top));
    }
}
