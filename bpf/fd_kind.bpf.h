/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fd_kind.bpf.h - what an fd is (enum fd_kind): a socket by its family and
 * protocol, a pipe or a FIFO, a terminal, an anonymous inode by its name
 * (eventfd, epoll, timerfd...), read while the syscall that takes it runs.
 * Both engines name by it, in attach mode, the file a waker wakes from and
 * a sleeper waits on.
 */
#ifndef WAKEPROBE_FD_KIND_BPF_H
#define WAKEPROBE_FD_KIND_BPF_H

#include "maps.bpf.h"

/*
 * Attach mode: the syscalls whose first argument is an fd, by number, one
 * bit each (mechanism__syscall_takes_fd() fills it before load): only
 * theirs is looked up (fd_kind_now()).
 */
const volatile __u64 fd_syscalls[WP_MAX_SYSCALLS / 64];

/* include/uapi/linux/stat.h */
#define S_IFMT		00170000
#define S_IFSOCK	0140000
#define S_IFBLK		0060000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
/* include/uapi/linux/magic.h: the file systems a kind is told by */
#define PIPEFS_MAGIC		0x50495045
#define ANON_INODE_FS_MAGIC	0x09041934
#define MQUEUE_MAGIC		0x19800202
/* include/uapi/linux/major.h: TTY_MAJOR, TTYAUX_MAJOR (/dev/tty, console, ptmx), UNIX98_PTY_SLAVE_MAJOR + 8 */
#define TTY_MAJOR		4
#define TTYAUX_MAJOR		5
#define PTY_SLAVE_MAJOR_FIRST	136
#define PTY_SLAVE_MAJOR_LAST	143
#define MINORBITS		20	/* include/linux/kdev_t.h: a dev_t is major << 20 | minor */
/* include/linux/socket.h, include/linux/net.h, include/uapi/linux/in.h */
#define AF_UNIX			1
#define AF_INET			2
#define AF_NETLINK		16
#define AF_INET6		10
#define SOCK_STREAM		1
#define SOCK_DGRAM		2
#define SOCK_SEQPACKET		5
#define IPPROTO_TCP		6
#define IPPROTO_UDP		17
#define IPPROTO_UDPLITE		136
#define IPPROTO_MPTCP		262

/*
 * What an fd is, read through two chains of pointers: the task's fd table
 * to the file, the file to its inode, file system, socket or name. Each is
 * read twice over here, by one body (DEFINE_FD_KIND()) with two readers:
 * v6.2+ casts each pointer to its kernel type (bpf_rdonly_cast()) and
 * loads through it inline, as a probe read guards a load; older kernels
 * take a bpf_probe_read_kernel() call for each, 25 ns apiece on a wakeup's
 * path (an epoll server's wait is about a dozen of them).
 */
#define RD_CAST(p, type)	((type *)bpf_rdonly_cast((void *)(p), bpf_core_type_id_kernel(type)))
#define RD_INLINE(p, field)	((p)->field)
#define PR_CAST(p, type)	((type *)(p))
#define PR_READ(p, field)	BPF_CORE_READ(p, field)
/*
 * ... and the file at an index of the fd array, which a pointer of BTF's
 * type cannot be moved to: loaded as a word (kernel_u64()), or by a
 * bpf_probe_read_kernel()
 */
#define RD_SLOT(fds, fd)	((struct file *)kernel_u64((__u64)(fds) + (fd) * sizeof(void *)))
static __always_inline struct file *fd_slot_probed(struct file **fds, __u64 fd)
{
	struct file *f = NULL;

	return bpf_probe_read_kernel(&f, sizeof(f), fds + fd) ? NULL : f;
}
#define PR_SLOT(fds, fd)	fd_slot_probed(fds, fd)

/* an anonymous inode's name, NUL-padded, compared 8 bytes at a time */
union anon_name {
	char c[16];
	__u64 w[2];
};

/* NAME_IS - is @name (union anon_name) the string @literal (of under 16 bytes)? Folded to two compares */
#define NAME_IS(name, literal)								\
	((name).w[0] == ((union anon_name){ .c = literal }).w[0] &&			\
	 (name).w[1] == ((union anon_name){ .c = literal }).w[1])

/*
 * anon_name_kind - an anonymous inode's kind from its name: the one
 * anon_inode_getfile() gave its dentry ("[eventfd]"; inotify's has no
 * brackets). io_uring's own inode has the same file system and name.
 */
static __always_inline __u8 anon_name_kind(union anon_name name)
{
	if (NAME_IS(name, "[eventfd]"))
		return FD_KIND_EVENTFD;
	if (NAME_IS(name, "[eventpoll]"))
		return FD_KIND_EPOLL;
	if (NAME_IS(name, "[timerfd]"))
		return FD_KIND_TIMERFD;
	if (NAME_IS(name, "[signalfd]"))
		return FD_KIND_SIGNALFD;
	if (NAME_IS(name, "inotify"))
		return FD_KIND_INOTIFY;
	if (NAME_IS(name, "[io_uring]"))
		return FD_KIND_IO_URING;
	return FD_KIND_OTHER;
}

/* the longest name looked for, "[eventpoll]", has 11 characters: one cut to them is no other */
static __always_inline __u8 anon_inode_kind_probed(const unsigned char *p)
{
	union anon_name name = {};

	if (bpf_probe_read_kernel_str(name.c, 12, p) <= 0)
		return FD_KIND_OTHER;
	return anon_name_kind(name);
}

/* zero_bytes - the top bit of each zero byte of @w, exact up to its lowest zero byte (above it, maybe more) */
#define ZERO_BYTES(w)	(((w) - 0x0101010101010101ull) & ~(w) & 0x8080808080808080ull)

/*
 * anon_inode_kind_inline - the same, the name's first 16 bytes loaded as
 * two words (kernel_u64()), and the bytes from its NUL on cleared,
 * little-endian: what follows a dentry's name is what its slot held
 * before. A name of 16 bytes or more is none looked for.
 */
static __always_inline __u8 anon_inode_kind_inline(const unsigned char *p)
{
	union anon_name name;
	__u64 z;

	name.w[0] = kernel_u64((__u64)p);
	name.w[1] = kernel_u64((__u64)p + 8);
	if ((z = ZERO_BYTES(name.w[0]))) {
		name.w[0] &= ((z & -z) >> 7) - 1;
		name.w[1] = 0;
	} else if ((z = ZERO_BYTES(name.w[1]))) {
		name.w[1] &= ((z & -z) >> 7) - 1;
	}
	return anon_name_kind(name);
}

/* socket_kind - an fd kind from a socket's family, type and protocol */
static __always_inline __u8 socket_kind(__u16 family, __u16 type, __u16 protocol)
{
	switch (family) {
	case AF_UNIX:
		if (type == SOCK_STREAM)
			return FD_KIND_UNIX_STREAM;
		if (type == SOCK_DGRAM)
			return FD_KIND_UNIX_DGRAM;
		return type == SOCK_SEQPACKET ? FD_KIND_UNIX_SEQPACKET : FD_KIND_SOCKET;
	case AF_INET:
	case AF_INET6:
		if (protocol == IPPROTO_TCP || protocol == IPPROTO_MPTCP)
			return FD_KIND_TCP_SOCKET;
		if (protocol == IPPROTO_UDP || protocol == IPPROTO_UDPLITE)
			return FD_KIND_UDP_SOCKET;
		return FD_KIND_SOCKET;
	case AF_NETLINK:
		return FD_KIND_NETLINK;
	default:
		return FD_KIND_SOCKET;
	}
}

/* tty_major - is @major a terminal's: TTY_MAJOR, TTYAUX_MAJOR, a pseudo-terminal's slave */
static __always_inline bool tty_major(__u32 major)
{
	return major == TTY_MAJOR || major == TTYAUX_MAJOR ||
	       (major >= PTY_SLAVE_MAJOR_FIRST && major <= PTY_SLAVE_MAJOR_LAST);
}

/*
 * DEFINE_FD_KIND - @fn(curr, fd): what fd @fd of task @curr is, its
 * pointers read with @CAST and @READ (above). The mode's type first: an
 * anonymous inode has none before v6.15 and S_IFREG since ("anon_inode:
 * use a proper mode internally"), so its file system tells it, as it
 * tells a pipe from a FIFO (both S_IFIFO) and a message queue from a file
 * (both S_IFREG). No file at the fd: FD_KIND_CLOSED.
 */
#define DEFINE_FD_KIND(fn, CAST, READ, SLOT, ANON)						\
static __always_inline __u8 fn(struct task_struct *curr, __u64 fd)			\
{											\
	struct files_struct *files = CAST(READ(curr, files), struct files_struct);	\
	struct fdtable *fdt = CAST(READ(files, fdt), struct fdtable);			\
	struct file **fds = READ(fdt, fd);						\
	struct file *f = NULL;								\
	struct super_block *sb;								\
	struct dentry *dentry;								\
	struct inode *inode;								\
	struct socket *sock;								\
	struct sock *sk;								\
	unsigned long magic;								\
	__u16 mode;									\
											\
	if (fd >= READ(fdt, max_fds) || !(f = SLOT(fds, fd)))				\
		return FD_KIND_CLOSED;							\
	f = CAST(f, struct file);							\
	inode = CAST(READ(f, f_inode), struct inode);					\
	mode = READ(inode, i_mode);							\
	sb = CAST(READ(inode, i_sb), struct super_block);				\
	magic = READ(sb, s_magic);							\
	switch (mode & S_IFMT) {							\
	case S_IFSOCK:									\
		sock = CAST(READ(f, private_data), struct socket);			\
		sk = CAST(READ(sock, sk), struct sock);					\
		return socket_kind(READ(sk, __sk_common.skc_family), READ(sk, sk_type),	\
				   READ(sk, sk_protocol));				\
	case S_IFIFO:									\
		return magic == PIPEFS_MAGIC ? FD_KIND_PIPE : FD_KIND_FIFO;		\
	case S_IFBLK:									\
		return FD_KIND_BLOCK_DEVICE;						\
	case S_IFCHR:									\
		return tty_major(READ(inode, i_rdev) >> MINORBITS) ? FD_KIND_TTY :	\
								     FD_KIND_CHAR_DEVICE; \
	}										\
	if (magic == ANON_INODE_FS_MAGIC) {						\
		dentry = CAST(READ(f, f_path.dentry), struct dentry);			\
		return ANON(READ(dentry, d_name.name));					\
	}										\
	if (magic == MQUEUE_MAGIC)							\
		return FD_KIND_MQUEUE;							\
	return FD_KIND_FILE;								\
}

DEFINE_FD_KIND(fd_kind_inline, RD_CAST, RD_INLINE, RD_SLOT, anon_inode_kind_inline)
DEFINE_FD_KIND(fd_kind_probed, PR_CAST, PR_READ, PR_SLOT, anon_inode_kind_probed)

/*
 * fd_kind_now - what fd @fd of current is, when syscall @nr takes one as its
 * first argument (enum fd_kind; FD_KIND_UNKNOWN when it takes none):
 * looked up while the syscall runs, so it is the file the syscall holds,
 * whatever becomes of the fd after, and however long before the attach it
 * was opened.
 */
static __always_inline __u8 fd_kind_now(__s64 nr, __u64 fd)
{
	struct task_struct *curr = bpf_get_current_task_btf();

	if (nr < 0 || nr >= WP_MAX_SYSCALLS || !(fd_syscalls[(__u64)nr / 64] & (1ull << ((__u64)nr % 64))))
		return FD_KIND_UNKNOWN;
	if (bpf_ksym_exists(bpf_rdonly_cast))
		return fd_kind_inline(curr, fd);
	return fd_kind_probed(curr, fd);
}

#endif /* WAKEPROBE_FD_KIND_BPF_H */
