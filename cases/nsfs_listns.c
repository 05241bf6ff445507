// SPDX-License-Identifier: GPL-2.0
/*
 * listns(2) (issue 17, item 2; 6.19): listing namespace ids by type and by
 * owning user namespace, pagination, what a caller may see, and the errors
 * for malformed requests.  Source: the commit that added it,
 * linux:76b6f5dfb3fd ("nstree: add listns()"), its uapi (struct ns_id_req
 * in include/uapi/linux/nsfs.h) and linux:8d76afe84fa2 ("nstree: tighten
 * permission checks for listing", 7.0, stable 6.19+).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "nsconform.h"
#include "kselftest_harness.h"

/* Which namespaces a caller may see depends on it: see nsrun. */
NS_CASE_NEEDS_INITIAL_PIDNS;

#define MAXIDS 4096

/* Every id listns(@types, @owner) gives, page by page with @page ids. */
static long list_all(uint32_t types, uint64_t owner, size_t page, uint64_t *out)
{
	uint64_t last = 0;
	long total = 0, n;

	do {
		n = ns_list(last, types, owner, out + total, page);
		if (n == -ENOENT && last)
			break;	/* nothing after the last id */
		if (n < 0)
			return n;
		if (n)
			last = out[total + n - 1];
		total += n;
	} while (n == (long)page && total + (long)page <= MAXIDS);
	return total;
}

static bool has(const uint64_t *ids, long n, uint64_t id)
{
	for (long i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/*
 * The namespaces the caller is in are listed, each under its own type only (listns(2) uapi;
 * linux:76b6f5dfb3fd "nstree: add listns()", 6.19).
 */
TEST(listns_lists_the_callers_namespaces_by_type)
{
	static uint64_t all[MAXIDS], one[MAXIDS];
	long n_all, n_sum = 0;

	NS_NEED(NS_F_LISTNS);
	n_all = list_all(0, 0, 256, all);
	ASSERT_LT(0, n_all) TH_LOG("listns: %s", strerror(-n_all));
	for (int i = 0; i < NS_NTYPES; i++) {
		const struct ns_type *t = &ns_types[i];
		uint64_t id;
		long n;

		if (!ns_type_available(t->name))
			continue;
		ASSERT_EQ(0, ns_get_id_of(0, t->name, &id));
		EXPECT_TRUE(has(all, n_all, id)) TH_LOG("our %s namespace is not listed", t->name);
		n = list_all(t->flag, 0, 256, one);
		ASSERT_LE(0, n);
		EXPECT_TRUE(has(one, n, id)) TH_LOG("our %s namespace is not listed by type",
						    t->name);
		/* ids of this type are listed with all types, and under no other type */
		for (long j = 0; j < n; j++)
			EXPECT_TRUE(has(all, n_all, one[j]));
		n_sum += n;
	}
	/* the types partition the listing */
	EXPECT_EQ(n_all, n_sum);
}

/*
 * Paging one id at a time from the last id returned gives the same ascending ids as one call
 * (listns(2) uapi: ns_id is the last id seen; linux:76b6f5dfb3fd, 6.19).
 */
TEST(listns_pagination_is_ascending_and_complete)
{
	static uint64_t big[MAXIDS], small[MAXIDS];
	long nb, ns;

	NS_NEED(NS_F_LISTNS);
	nb = ns_list(0, 0, 0, big, MAXIDS);
	ASSERT_LT(0, nb);
	ns = list_all(0, 0, 1, small);
	ASSERT_EQ(nb, ns);
	for (long i = 0; i < nb; i++) {
		EXPECT_EQ(big[i], small[i]);
		if (i)
			EXPECT_LT(big[i - 1], big[i]);
	}
	/* a buffer of 0 ids lists nothing */
	EXPECT_EQ(0, ns_list(0, 0, 0, big, 0));
}

/*
 * A namespace the caller is not in is listed, by any filter, only for real root in the initial PID
 * namespace (linux:8d76afe84fa2 "nstree: tighten permission checks for listing"; listns(2)).
 *
 * Since linux:8d76afe84fa2 a namespace the caller is not in is listed
 * only for may_see_all_namespaces(): CAP_SYS_ADMIN in the initial user and
 * PID namespaces.  Before it, CAP_SYS_ADMIN over the owning user namespace
 * sufficed (6.19 as released).  nsrun keeps the case in the initial PID
 * namespace, so the root pass sees them and the user pass (the owner) does
 * not; root outside the initial PID namespace is the next test.
 */
TEST(listns_other_namespaces_need_the_global_view)
{
	bool global = ns_in_initial_userns() && ns_have_sys_admin() && ns_in_initial_pidns();
	uint64_t uts, user, mine;
	struct ns_holder h;

	NS_NEED(NS_F_LISTNS);
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWUTS, NULL, NULL));
	ASSERT_EQ(0, ns_get_id_of(h.pid, "uts", &uts));
	ASSERT_EQ(0, ns_get_id_of(h.pid, "user", &user));
	ASSERT_EQ(0, ns_get_id_of(0, "user", &mine));
	TH_LOG("%s the global view", global ? "with" : "without");
	EXPECT_EQ(global, ns_listed(uts, 0, 0));
	EXPECT_EQ(global, ns_listed(uts, CLONE_NEWUTS, 0));
	/* owned by the holder's user namespace, which we created */
	EXPECT_EQ(global, ns_listed(uts, 0, user));
	/* the holder's user namespace is owned by ours */
	EXPECT_EQ(global, ns_listed(user, CLONE_NEWUSER, mine));
	EXPECT_EQ(global, ns_listed(user, 0, NSC_LISTNS_CURRENT_USER));
	EXPECT_EQ(0, ns_holder_stop(&h));
}

/* What listns() showed in a child PID namespace: 1 listed, 0 not, -errno. */
struct listed_outside {
	uint64_t uts, user, mine;
	int by_any, by_type, by_owner, user_by_owner;
};

/* In a PID namespace of its own (ns_run(CLONE_NEWPID)): list the holder's namespaces. */
static int list_outside_worker(void *arg)
{
	struct listed_outside *o = arg;

	if (ns_in_initial_pidns())
		return child_fail("still in the initial PID namespace");
	o->by_any = ns_listed(o->uts, 0, 0);
	o->by_type = ns_listed(o->uts, CLONE_NEWUTS, 0);
	o->by_owner = ns_listed(o->uts, 0, o->user);
	o->user_by_owner = ns_listed(o->user, CLONE_NEWUSER, o->mine);
	return 0;
}

/*
 * Root outside the initial PID namespace does not see by listns() the namespaces it is not in, by
 * any filter (linux:8d76afe84fa2 "nstree: tighten permission checks for listing"; listns(2)).
 *
 * linux:8d76afe84fa2 (7.0, stable 6.19+) lists a namespace the caller is
 * not in only for may_see_all_namespaces(): CAP_SYS_ADMIN in the initial
 * user and PID namespaces.  The test makes the child PID namespace itself,
 * so the refusal is observed wherever the runner puts the case: real root
 * (all capabilities in the initial user namespace, which owns the holder's
 * user namespace) in a PID namespace of its own.  Before the fix
 * CAP_SYS_ADMIN over the owner sufficed and it sees them.
 */
TEST(listns_other_namespaces_hidden_outside_initial_pid_ns)
{
	struct listed_outside *o = ns_shared_page(sizeof(*o));
	struct ns_holder h;

	NS_NEED(NS_F_LISTNS);
	NS_NEED_REAL_ROOT(ns_in_initial_userns() && ns_have_sys_admin());
	ASSERT_NE(NULL, o);
	ASSERT_EQ(0, ns_holder_start(&h, CLONE_NEWUSER | CLONE_NEWUTS, NULL, NULL));
	ASSERT_EQ(0, ns_get_id_of(h.pid, "uts", &o->uts));
	ASSERT_EQ(0, ns_get_id_of(h.pid, "user", &o->user));
	ASSERT_EQ(0, ns_get_id_of(0, "user", &o->mine));
	o->by_any = o->by_type = o->by_owner = o->user_by_owner = -ENODATA;	/* not reached */
	EXPECT_EQ(0, ns_run(CLONE_NEWPID, list_outside_worker, o));
	EXPECT_EQ(0, o->by_any) TH_LOG("the holder's uts, no filter: %d", o->by_any);
	EXPECT_EQ(0, o->by_type) TH_LOG("the holder's uts, CLONE_NEWUTS: %d", o->by_type);
	EXPECT_EQ(0, o->by_owner) TH_LOG("the holder's uts, by its owner: %d", o->by_owner);
	EXPECT_EQ(0, o->user_by_owner) TH_LOG("the holder's user ns, by ours: %d",
					      o->user_by_owner);
	EXPECT_EQ(0, ns_holder_stop(&h));
}

static long raw(uint32_t size, uint32_t spare, uint32_t types, uint64_t owner,
		uint64_t *ids, size_t nr, unsigned int flags)
{
	struct nsc_ns_id_req req = {
		.size = size, .spare = spare, .ns_type = types, .user_ns_id = owner,
	};
	long n = ns_listns(&req, ids, nr, flags);

	return n < 0 ? -errno : n;
}

/*
 * listns() refuses flags, a short or unknown-spare request, unknown types, an unknown owner, too
 * many ids, and unwritable buffers (linux:76b6f5dfb3fd "nstree: add listns()", 6.19; listns(2)).
 */
TEST(listns_rejects_malformed_requests)
{
	uint64_t ids[8];
	void *none;

	NS_NEED(NS_F_LISTNS);
	none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, none);
	EXPECT_LT(0, raw(32, 0, 0, 0, ids, 8, 0));
	EXPECT_EQ(-EINVAL, raw(32, 0, 0, 0, ids, 8, 1));
	EXPECT_EQ(-EINVAL, raw(24, 0, 0, 0, ids, 8, 0));
	EXPECT_EQ(-EINVAL, raw(32, 1, 0, 0, ids, 8, 0));
	EXPECT_EQ(-EOPNOTSUPP, raw(32, 0, 1, 0, ids, 8, 0));
	EXPECT_EQ(-EINVAL, raw(32, 0, 0, ~0ULL - 1, ids, 8, 0));
	EXPECT_EQ(-EOVERFLOW, raw(32, 0, 0, 0, ids, 1000001, 0));
	EXPECT_EQ(-EFAULT, raw(32, 0, 0, 0, none, 8, 0));
	errno = 0;
	EXPECT_EQ(-1, ns_listns(none, ids, 8, 0));
	EXPECT_EQ(EFAULT, errno);
	munmap(none, 4096);
}

TEST_HARNESS_MAIN
