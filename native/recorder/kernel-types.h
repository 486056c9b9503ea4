/*
 * The kernel structures the recorder reads, with only the members it uses. Compiled with
 * preserve_access_index, so libbpf relocates every member access against the running kernel's
 * BTF (/sys/kernel/btf/vmlinux) at load time: offsets here are never used as they stand.
 */
#ifndef ENVELOPE_GATE_KERNEL_TYPES_H
#define ENVELOPE_GATE_KERNEL_TYPES_H

#pragma clang attribute push(__attribute__((preserve_access_index)), apply_to = record)

struct qstr {
  union {
    struct {
      unsigned int hash;
      unsigned int len;
    };
    unsigned long long hash_len;
  };
  const unsigned char *name;
};

struct dentry;
struct dentry_operations {
  char *(*d_dname)(struct dentry *, char *, int);
};

struct super_block {
  unsigned long s_magic;
};

struct dentry {
  struct super_block *d_sb;
  struct dentry *d_parent;
  struct qstr d_name;
  const struct dentry_operations *d_op;
};

struct vfsmount {
  struct dentry *mnt_root;
};

struct mount {
  struct mount *mnt_parent;
  struct dentry *mnt_mountpoint;
  struct vfsmount mnt;
};

struct path {
  struct vfsmount *mnt;
  struct dentry *dentry;
};

struct inode {
  unsigned short i_mode;
};

struct file {
  struct path f_path;
  struct inode *f_inode;
};

struct fdtable {
  unsigned int max_fds;
  struct file **fd;
};

struct files_struct {
  struct fdtable *fdt;
};

struct fs_struct {
  struct path root;
  struct path pwd;
};

struct mm_struct {
  unsigned long arg_start;
  unsigned long arg_end;
};

struct upid {
  int nr;
  void *ns;
};

struct pid {
  unsigned int level;
  struct upid numbers[1];
};

typedef struct {
  int counter;
} atomic_t;

struct signal_struct {
  atomic_t live;
};

struct task_struct {
  int pid;
  int tgid;
  int exit_code;
  struct files_struct *files;
  struct fs_struct *fs;
  struct mm_struct *mm;
  struct pid *thread_pid;
  struct signal_struct *signal;
  struct task_struct *group_leader;
};

struct linux_binprm {
  struct file *file;
  const char *filename;
  const char *interp;
};

struct pt_regs {
  unsigned long r10;
  unsigned long r9;
  unsigned long r8;
  unsigned long dx;
  unsigned long si;
  unsigned long di;
  unsigned long orig_ax;
};

#pragma clang attribute pop

#endif
