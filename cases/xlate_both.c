// SPDX-License-Identifier: GPL-2.0
/*
 * The translation matrix, interfaces that carry a pid and a uid/gid at once:
 * what the target (pid 4 of PC, uid 1000 of U1) looks like to an observer in
 * the same namespaces, an ancestor, a descendant, a sibling, and a user
 * namespace with no map (fixtures/xlate.h draws the world).  The PID
 * namespaces are owned by different user namespaces, so each cell checks
 * both dimensions and their combination.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "nsconform.h"
#include "xlate.h"

XLATE_FIXTURE();

/* The answer holds the target's pid and uid (v[0], v[1]) as server @pos sees them. */
static void expect_target(struct __test_metadata *_metadata, struct xlate_world *w, int pos,
			  const struct xlate_ans *a)
{
	EXPECT_EQ(xlate_pid_seen(w, XL_TGT, pos), a->v[0]);
	EXPECT_EQ(xlate_id_seen(pos), a->v[1]);
}

/* v[0..2]: the pid, uid and gid of @uc. */
static int answer_ucred(const struct ucred *uc, struct xlate_ans *a)
{
	a->v[0] = uc->pid;
	a->v[1] = uc->uid;
	a->v[2] = uc->gid;
	return 0;
}

/* In the target: a datagram with SCM_CREDENTIALS naming itself to server *arg. */
static int send_creds(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	struct ucred uc = { .pid = getpid(), .uid = getuid(), .gid = getgid() };
	char cbuf[CMSG_SPACE(sizeof(uc))] = { 0 }, byte = 'c';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);

	(void)self, (void)a;
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(uc));
	memcpy(CMSG_DATA(c), &uc, sizeof(uc));
	return sendmsg(w->sock[*(const int *)arg][1], &m, 0) == 1 ? 0 : -errno;
}

/* In an observer: the credentials of the datagram waiting for it (v[0] pid, v[1] uid, v[2] gid). */
static int recv_creds(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	char cbuf[CMSG_SPACE(sizeof(struct ucred))] = { 0 }, byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
			    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	struct ucred uc;

	(void)arg;
	if (recvmsg(w->sock[self][0], &m, MSG_DONTWAIT) != 1)
		return -errno;
	c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_CREDENTIALS)
		return -ENOMSG;
	memcpy(&uc, CMSG_DATA(c), sizeof(uc));
	return answer_ucred(&uc, a);
}

/*
 * SCM_CREDENTIALS carry the sender's pid, uid and gid translated into the
 * receiver's PID and user namespaces: 0 for a pid the receiver cannot see,
 * the overflow id for an unmapped uid (unix(7) SCM_CREDENTIALS,
 * pid_namespaces(7), user_namespaces(7) "Unmapped user and group IDs").
 */
TEST_F(xlate, scm_credentials)
{
	int pos = variant->pos;
	struct xlate_ans a;

	XLATE_ASK(XL_TGT, send_creds, &pos, sizeof(pos), &a);
	XLATE_ASK(pos, recv_creds, NULL, 0, &a);
	expect_target(_metadata, self->w, pos, &a);
	EXPECT_EQ(xlate_id_seen(pos), a.v[2]);
}

/* In an observer: SO_PEERCRED of the socket sent to it. */
static int peercred(int fd, const void *arg, struct xlate_ans *a)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	(void)arg;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len))
		return -errno;
	return answer_ucred(&uc, a);
}

/*
 * SO_PEERCRED gives the credentials of the peer at socketpair() time, pid
 * and ids translated into the caller's namespaces (unix(7) SO_PEERCRED;
 * linux:109f6e39fa07 "af_unix: Allow SO_PEERCRED to work across namespaces").
 */
TEST_F(xlate, so_peercred)
{
	int pos = variant->pos;
	struct xlate_ans a;

	XLATE_PASS(XL_TGT, xlate_make_pair, pos, peercred, NULL, 0, &a);
	expect_target(_metadata, self->w, pos, &a);
	EXPECT_EQ(xlate_id_seen(pos), a.v[2]);
}

/* In the target: a System V object of type *arg, used once; v[0] its id. */
static int make_sysv(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	int type = *(const int *)arg, id;

	(void)w, (void)self;
	if (type == 'm') {
		struct { long mtype; char c; } msg = { 1, 'x' };

		id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
		if (id < 0 || msgsnd(id, &msg, 1, 0))
			return -errno;
	} else if (type == 's') {
		void *p;

		id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
		if (id < 0)
			return -errno;
		p = shmat(id, NULL, 0);
		if (p == (void *)-1 || shmdt(p))
			return -errno;
	} else {
		struct sembuf op = { .sem_num = 0, .sem_op = 1 };

		id = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
		if (id < 0 || semop(id, &op, 1))
			return -errno;
	}
	a->v[0] = id;
	return 0;
}

struct sysv_q {
	int type, id;
};

/* In an observer: IPC_STAT of the object (v[0..3] uid gid cuid cgid, v[4] v[5] the pids). */
static int stat_sysv(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	const struct sysv_q *q = arg;
	struct ipc_perm *p;
	struct msqid_ds m;
	struct shmid_ds s;
	struct semid_ds e;
	union { int val; struct semid_ds *buf; } u = { .buf = &e };

	(void)w, (void)self;
	if (q->type == 'm') {
		if (msgctl(q->id, IPC_STAT, &m))
			return -errno;
		p = &m.msg_perm;
		a->v[4] = m.msg_lspid;
		a->v[5] = m.msg_lrpid;
	} else if (q->type == 's') {
		if (shmctl(q->id, IPC_STAT, &s))
			return -errno;
		p = &s.shm_perm;
		a->v[4] = s.shm_cpid;
		a->v[5] = s.shm_lpid;
	} else {
		if (semctl(q->id, 0, IPC_STAT, u))
			return -errno;
		p = &e.sem_perm;
		a->v[4] = semctl(q->id, 0, GETPID);
		a->v[5] = 0;
	}
	a->v[0] = p->uid;
	a->v[1] = p->gid;
	a->v[2] = p->cuid;
	a->v[3] = p->cgid;
	return 0;
}

static void sysv_cell(struct __test_metadata *_metadata, struct xlate_world *w, int pos,
		      int type, pid_t pid5, pid_t pid6)
{
	struct sysv_q q = { .type = type };
	struct xlate_ans a;
	unsigned int id = xlate_id_seen(pos);

	ASSERT_EQ(0, xlate_ask(w, XL_TGT, make_sysv, &type, sizeof(type), &a));
	q.id = a.v[0];
	ASSERT_EQ(0, xlate_ask(w, pos, stat_sysv, &q, sizeof(q), &a));
	EXPECT_EQ(id, a.v[0]);
	EXPECT_EQ(id, a.v[1]);
	EXPECT_EQ(id, a.v[2]);
	EXPECT_EQ(id, a.v[3]);
	EXPECT_EQ(pid5, a.v[4]);
	EXPECT_EQ(pid6, a.v[5]);
}

/*
 * msgctl(IPC_STAT) shows owner and creator ids in the caller's user
 * namespace and msg_lspid (the last sender) in the caller's PID namespace,
 * 0 where it cannot see the sender (msgctl(2)).
 */
TEST_F(xlate, sysv_msg_ipc_stat)
{
	int pos = variant->pos;

	sysv_cell(_metadata, self->w, pos, 'm', xlate_pid_seen(self->w, XL_TGT, pos), 0);
}

/*
 * shmctl(IPC_STAT): owner and creator ids in the caller's user namespace,
 * shm_cpid and shm_lpid in the caller's PID namespace, 0 when not visible
 * (shmctl(2)).
 */
TEST_F(xlate, sysv_shm_ipc_stat)
{
	int pos = variant->pos;
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);

	sysv_cell(_metadata, self->w, pos, 's', pid, pid);
}

/*
 * semctl(IPC_STAT) ids in the caller's user namespace, semctl(GETPID) the
 * last semop()'s pid in the caller's PID namespace, 0 when not visible
 * (semctl(2)).
 */
TEST_F(xlate, sysv_sem_ipc_stat)
{
	int pos = variant->pos;

	sysv_cell(_metadata, self->w, pos, 'e', xlate_pid_seen(self->w, XL_TGT, pos), 0);
}

/* In an observer: wait for signal *arg; v[0] si_pid, v[1] si_uid, v[2] si_code. */
static int wait_sig(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	struct timespec ts = { .tv_sec = NS_WAIT_MS / 1000 };
	int sig = *(const int *)arg;
	siginfo_t si;
	sigset_t set;

	(void)w, (void)self;
	sigemptyset(&set);
	sigaddset(&set, sig);
	if (sigtimedwait(&set, &si, &ts) != sig)
		return -errno;
	a->v[0] = si.si_pid;
	a->v[1] = si.si_uid;
	a->v[2] = si.si_code;
	return 0;
}

/* In an observer: a message queue with a SIGUSR2 notification, its fd sent to the target. */
static int mq_arm(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	struct mq_attr attr = { .mq_maxmsg = 1, .mq_msgsize = 8 };
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGUSR2 };
	char name[32];
	mqd_t q;
	int err = 0;

	(void)arg, (void)a;
	snprintf(name, sizeof(name), "/xlate-%d", self);
	q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr);
	if (q == (mqd_t)-1)
		return -errno;
	mq_unlink(name);
	if (mq_notify(q, &ev))
		err = -errno;
	if (!err)
		err = xlate_send_fd(w, XL_TGT, q);
	/* kept open: closing it would drop the registration (mq_notify(3)) */
	return err;
}

/* In the target: send one message on the queue sent to it. */
static int mq_post(int q, const void *arg, struct xlate_ans *a)
{
	(void)arg, (void)a;
	return mq_send(q, "x", 1, 0) ? -errno : 0;
}

/*
 * An mq_notify() signal carries the sender's pid in the PID namespace of the
 * process that registered and its real uid in that process's user namespace
 * (mq_notify(3): si_pid, si_uid; ipc/mqueue.c __do_notify() "map current
 * pid/uid into info->owner's namespaces").
 *
 * Finding (fixtures/data/expectations): kernel/signal.c send_signal_locked()
 * translates si_uid again, from the sender's user namespace into the
 * receiver's, so a receiver in another user namespace than the sender gets
 * the overflow id (anc, desc, sib here); unfixed as of 6.18.44.
 */
TEST_F(xlate, mq_notify_siginfo)
{
	int pos = variant->pos, sig = SIGUSR2;
	struct xlate_ans a;

	XLATE_ASK(pos, mq_arm, NULL, 0, &a);
	ASSERT_EQ(0, xlate_use(self->w, XL_TGT, mq_post, NULL, 0, &a));
	XLATE_ASK(pos, wait_sig, &sig, sizeof(sig), &a);
	expect_target(_metadata, self->w, pos, &a);
	EXPECT_EQ(SI_MESGQ, a.v[2]);
}

/* In the target: pidfd_send_signal(SIGUSR1) to the pidfd sent to it. */
static int pidfd_kill(int fd, const void *arg, struct xlate_ans *a)
{
	(void)arg, (void)a;
	return syscall(SYS_pidfd_send_signal, fd, SIGUSR1, NULL, 0) ? -errno : 0;
}

/*
 * pidfd_send_signal() reaches a process in the caller's PID namespace or a
 * descendant, with si_pid and si_uid translated for the receiver; a process
 * outside that hierarchy (ancestor, sibling) is refused with EINVAL
 * (pidfd_send_signal(2) EINVAL "pidfd refers to a process ... not in the
 * caller's PID namespace hierarchy"; linux:3eb39f47934f "signal: add
 * pidfd_send_signal() syscall").
 */
TEST_F(xlate, pidfd_send_signal_siginfo)
{
	int pos = variant->pos, sig = SIGUSR1, r;
	struct xlate_ans a;

	r = xlate_pass(self->w, pos, xlate_make_pidfd, XL_TGT, pidfd_kill, NULL, 0, &a);
	if (pos == XL_ANC || pos == XL_SIB) {
		EXPECT_EQ(-EINVAL, r);
		return;
	}
	ASSERT_EQ(0, r);
	XLATE_ASK(pos, wait_sig, &sig, sizeof(sig), &a);
	expect_target(_metadata, self->w, pos, &a);
	EXPECT_EQ(SI_USER, a.v[2]);
}

/* In the target: the pid of the server named *arg in its own /proc (0 when absent). */
static int find_comm(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	char want[16], path[64], name[32];

	(void)w, (void)self;
	snprintf(want, sizeof(want), "xl-%s", xlate_pos_name[*(const int *)arg]);
	for (pid_t p = 1; p < 64; p++) {
		snprintf(path, sizeof(path), "/proc/%d/comm", p);
		if (ns_read_file(path, name, sizeof(name)) < 0)
			continue;
		name[strcspn(name, "\n")] = 0;
		if (!strcmp(name, want))
			a->v[0] = p;
	}
	return 0;
}

struct kill_q {
	pid_t pid;
	int queue;	/* 1: sigqueue(), 2: kill() of the process group pid leads,
			 * 3: the same after joining it, as kill(0) (for pgid 1) */
};

/* In the target: kill() or sigqueue() SIGUSR1 to q->pid. */
static int kill_it(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	const struct kill_q *q = arg;
	union sigval v = { .sival_int = 7 };

	(void)w, (void)self, (void)a;
	if (q->queue == 3 && setpgid(0, q->pid))
		return -errno;
	if (q->queue == 1 ? sigqueue(q->pid, SIGUSR1, v) :
	    kill(q->queue == 2 ? -q->pid : q->queue == 3 ? 0 : q->pid, SIGUSR1))
		return -errno;
	return 0;
}

/* In an observer: setpgid(0, 0). */
static int own_group(struct xlate_world *w, int self, const void *arg, struct xlate_ans *a)
{
	(void)w, (void)self, (void)arg, (void)a;
	return setpgid(0, 0) ? -errno : 0;
}

static void kill_cell(struct __test_metadata *_metadata, struct xlate_world *w, int pos,
		      int queue)
{
	struct kill_q q = { .pid = xlate_pid_seen(w, pos, XL_TGT), .queue = queue };
	int sig = SIGUSR1;
	struct xlate_ans a;

	/* the receiver's pid in the sender's namespace, as the sender's /proc lists it */
	ASSERT_EQ(0, xlate_ask(w, XL_TGT, find_comm, &pos, sizeof(pos), &a));
	ASSERT_EQ(q.pid, a.v[0]);
	if (!q.pid)
		return;		/* an ancestor's or a sibling's process has no pid here */
	if (queue >= 2)		/* the receiver leads a process group of its own */
		ASSERT_EQ(0, xlate_ask(w, pos, own_group, NULL, 0, &a));
	if (queue == 2 && q.pid == 1)	/* kill(-1) is every process: join, kill(0) */
		q.queue = 3;
	ASSERT_EQ(0, xlate_ask(w, XL_TGT, kill_it, &q, sizeof(q), &a));
	ASSERT_EQ(0, xlate_ask(w, pos, wait_sig, &sig, sizeof(sig), &a));
	expect_target(_metadata, w, pos, &a);
	EXPECT_EQ(queue == 1 ? SI_QUEUE : SI_USER, a.v[2]);
}

/*
 * kill() names the receiver by its pid in the sender's namespace, so only a
 * process there or below can be reached (an ancestor's or a sibling's has
 * no pid in it); the receiver's si_pid and si_uid are the sender's in the
 * receiver's namespaces (kill(2), pid_namespaces(7), user_namespaces(7)).
 */
TEST_F(xlate, kill_siginfo)
{
	kill_cell(_metadata, self->w, variant->pos, 0);
}

/*
 * sigqueue() (rt_sigqueueinfo with SI_QUEUE) gets the same translation of
 * si_pid and si_uid as kill() (sigqueue(3), linux:6b550f949594 "user
 * namespace: make signal.c respect user namespaces").
 */
TEST_F(xlate, sigqueue_siginfo)
{
	kill_cell(_metadata, self->w, variant->pos, 1);
}

/*
 * kill() of a process group names the group by its leader's pid in the
 * sender's namespace; each member gets si_pid and si_uid in its own
 * namespaces (kill(2) "If pid is less than -1"; pid_namespaces(7)).  The
 * same-namespace receiver is that namespace's init, whose group 1 kill(-1)
 * cannot name (it is every process): the sender joins it and kills group 0.
 */
TEST_F(xlate, group_kill_siginfo)
{
	kill_cell(_metadata, self->w, variant->pos, 2);
}

/* In an observer: PIDFD_GET_INFO of the pidfd sent to it (v[0..2] pids, v[3..5] ids). */
static int pidfd_info(int fd, const void *arg, struct xlate_ans *a)
{
	struct nsc_pidfd_info info;
	int r = ns_pidfd_info(fd, NSC_PIDFD_MASK_PID | NSC_PIDFD_MASK_CREDS, &info);

	(void)arg;
	a->v[0] = info.pid;
	a->v[1] = info.tgid;
	a->v[2] = info.ppid;
	a->v[3] = info.ruid;
	a->v[4] = info.euid;
	a->v[5] = info.egid;
	return r;
}

/*
 * PIDFD_GET_INFO gives pid, tgid and ppid in the caller's PID namespace and
 * the credentials in its user namespace; for a process it cannot see,
 * EREMOTE (pidfd_open(2); linux:cdda1f26e74b, 6.13; EREMOTE since
 * linux:ab89060fbc92, 7.0 and 6.18.15: ESRCH before, in expectations).
 */
TEST_F(xlate, pidfd_get_info)
{
	int pos = variant->pos, r;
	struct xlate_ans a;
	unsigned int id = xlate_id_seen(pos);
	pid_t pid = xlate_pid_seen(self->w, XL_TGT, pos);

	NS_NEED(NS_F_PIDFD_INFO);
	r = xlate_pass(self->w, XL_TGT, xlate_make_pidfd, pos, pidfd_info, NULL, 0, &a);
	if (!pid) {
		EXPECT_EQ(-EREMOTE, r);
		return;
	}
	ASSERT_EQ(0, r);
	EXPECT_EQ(pid, a.v[0]);
	EXPECT_EQ(pid, a.v[1]);
	EXPECT_EQ(xlate_pid_seen(self->w, XL_SAME, pos), a.v[2]);
	EXPECT_EQ(id, a.v[3]);
	EXPECT_EQ(id, a.v[4]);
	EXPECT_EQ(id, a.v[5]);
}

/*
 * In an observer: a child of its own that exits with 7; v[0] its pid as fork
 * gave it, v[1] si_pid, v[2] si_uid, v[3] si_code, v[4] si_status of SIGCHLD,
 * v[5] si_pid, v[6] si_uid of waitid().
 */
static int own_child_exits(struct xlate_world *w, int self, const void *arg,
			   struct xlate_ans *a)
{
	struct timespec ts = { .tv_sec = NS_WAIT_MS / 1000 };
	sigset_t set, old;
	siginfo_t si;
	pid_t pid;
	int err = 0;

	(void)w, (void)self, (void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	pid = ns_clone(0);
	if (pid < 0) {
		err = -errno;
		goto out;
	}
	if (pid == 0)
		_exit(7);
	a->v[0] = pid;
	if (sigtimedwait(&set, &si, &ts) != SIGCHLD) {
		err = -errno;
		ns_wait(pid, NS_WAIT_MS);
		goto out;
	}
	a->v[1] = si.si_pid;
	a->v[2] = si.si_uid;
	a->v[3] = si.si_code;
	a->v[4] = si.si_status;
	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, pid, &si, WEXITED | WNOHANG)) {
		err = -errno;
		ns_wait(pid, NS_WAIT_MS);
		goto out;
	}
	a->v[5] = si.si_pid;
	a->v[6] = si.si_uid;
out:
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

/*
 * SIGCHLD and waitid() name the child in the parent's namespaces: si_pid
 * as fork(2) returned it, si_uid the child's real uid in the parent's user
 * namespace, the overflow id 65534 where it has no mapping there, as for
 * the unm observer (wait(2) "si_uid"; user_namespaces(7) "Unmapped user and
 * group IDs"; kernel/signal.c do_notify_parent() translates with
 * from_kuid_munged() into the parent's user namespace).
 */
TEST_F(xlate, sigchld_siginfo)
{
	int pos = variant->pos;
	struct xlate_ans a;

	XLATE_ASK(pos, own_child_exits, NULL, 0, &a);
	ASSERT_LT(0, a.v[0]);
	EXPECT_EQ(a.v[0], a.v[1]);
	EXPECT_EQ(xlate_id_seen(pos), a.v[2]);
	EXPECT_EQ(CLD_EXITED, a.v[3]);
	EXPECT_EQ(7, a.v[4]);
	EXPECT_EQ(a.v[0], a.v[5]);
	EXPECT_EQ(xlate_id_seen(pos), a.v[6]);
}

TEST_HARNESS_MAIN
