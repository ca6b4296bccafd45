// SPDX-License-Identifier: GPL-2.0
/*
 * test_web_config.c - --web-config's files as exporter-toolkit writes
 * them: TLS, basic auth, both, with comments and quotes; and each bad file
 * refused in one line that names its line and the fix. The certificate and
 * key files are only looked for here; test_tls_server.c loads real ones.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "web_config.h"

/* a bcrypt hash of htpasswd -nbBC 4's, for its form: the parser checks no password */
#define HASH		"$2y$04$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5."
#define HASH_2B		"$2b$04$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5."
#define HASH_2A		"$2a$04$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5."

static char dir[] = "/tmp/wakeprobe-webconfig-XXXXXX";
static struct web_config cfg;
static char msg[PATH_MAX + 512];

static void touch(const char *name)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert_geq(fd, 0, "%s", path);
	close(fd);
}

static void unlink_in(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

static void make_dir(void)
{
	cr_assert_not_null(mkdtemp(dir));
	touch("server.crt");
	touch("server.key");
}

static void remove_dir(void)
{
	unlink_in("server.crt");
	unlink_in("server.key");
	unlink_in("web.yml");
	rmdir(dir);
}

TestSuite(web_config, .init = make_dir, .fini = remove_dir);

/* parse - @text as a file in the suite's directory would be read: 0, or the error with msg[] said */
static int parse(const char *text)
{
	memset(msg, 0, sizeof(msg));
	return web_config__parse(text, strlen(text), dir, "web.yml", &cfg, msg, sizeof(msg));
}

static const char *in_dir(const char *name)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

Test(web_config, tls_alone_serves_https_from_files_beside_the_config)
{
	cr_assert_eq(parse("tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"), 0, "%s", msg);
	cr_assert(cfg.tls);
	cr_assert_str_eq(cfg.cert_file, in_dir("server.crt"), "relative to the file's directory");
	cr_assert_str_eq(cfg.key_file, in_dir("server.key"));
	cr_assert_eq(cfg.min_version, WEB_TLS12, "TLS 1.2 unless told");
	cr_assert_eq(cfg.max_version, 0);
	cr_assert_eq(cfg.nr_users, 0);
}

Test(web_config, basic_auth_alone_with_comments_and_quotes)
{
	cr_assert_eq(parse("# who may scrape\n"
			   "\n"
			   "basic_auth_users:   # a comment after a key\n"
			   "    alice: " HASH "   # the scraper\n"
			   "    \"bob\": '" HASH_2B "'\n"
			   "    'carol o''neil': \"" HASH_2A "\"\n"
			   "    # a comment between users\n"
			   "    dave#1: " HASH "\n"),
		     0, "%s", msg);
	cr_assert_not(cfg.tls);
	cr_assert_eq(cfg.nr_users, 4);
	cr_assert_str_eq(cfg.users[0].name, "alice");
	cr_assert_str_eq(cfg.users[0].hash, HASH);
	cr_assert_str_eq(cfg.users[1].name, "bob");
	cr_assert_str_eq(cfg.users[1].hash, HASH_2B);
	cr_assert_str_eq(cfg.users[2].name, "carol o'neil", "'' is a quote in single quotes");
	cr_assert_str_eq(cfg.users[2].hash, HASH_2A);
	cr_assert_str_eq(cfg.users[3].name, "dave#1", "a '#' within a word is no comment");
}

Test(web_config, both_with_versions_absolute_paths_and_crlf_lines)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "tls_server_config:\r\n  cert_file: \"%s/server.crt\"\r\n  key_file: %s/server.key\r\n  client_auth_type: NoClientCert\r\n"
		 "  min_version: TLS13\r\n  max_version: TLS13\r\nbasic_auth_users:\r\n  alice: " HASH "\r\n",
		 dir, dir);
	cr_assert_eq(parse(text), 0, "%s", msg);
	cr_assert(cfg.tls);
	cr_assert_str_eq(cfg.cert_file, in_dir("server.crt"));
	cr_assert_eq(cfg.min_version, WEB_TLS13);
	cr_assert_eq(cfg.max_version, WEB_TLS13);
	cr_assert_eq(cfg.nr_users, 1);
	cr_assert_str_eq(cfg.users[0].hash, HASH);
}

Test(web_config, a_file_is_read_with_paths_relative_to_itself)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/web.yml", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("tls_server_config:\n  cert_file: server.crt\n  key_file: ./server.key\n", f);
	fclose(f);
	cr_assert_eq(chdir("/"), 0);
	cr_assert_eq(web_config__load(path, &cfg, msg, sizeof(msg)), 0, "%s", msg);
	cr_assert_str_eq(cfg.cert_file, in_dir("server.crt"), "not the working directory's");
	cr_assert_str_eq(cfg.key_file, in_dir("./server.key"));

	cr_assert_eq(web_config__load(in_dir("none.yml"), &cfg, msg, sizeof(msg)), -ENOENT);
	cr_assert(strstr(msg, "none.yml: no such file"), "%s", msg);
	cr_assert_eq(web_config__load(dir, &cfg, msg, sizeof(msg)), -EINVAL, "a directory");
	cr_assert(strstr(msg, "not a regular file"), "%s", msg);
}

Test(web_config, bcrypt_hashes_are_told_from_other_hashes)
{
	cr_assert(web_config__is_bcrypt(HASH));
	cr_assert(web_config__is_bcrypt(HASH_2B));
	cr_assert(web_config__is_bcrypt(HASH_2A));
	cr_assert_not(web_config__is_bcrypt("$2x$04$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5."),
		      "$2x$ is the buggy variant's");
	cr_assert_not(web_config__is_bcrypt("$2y$03$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5."),
		      "cost below 4");
	cr_assert_not(web_config__is_bcrypt("$2y$04$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5"), "short");
	cr_assert_not(web_config__is_bcrypt("$2y$04$m3MwXV77y7gbNCDJPraxK.GGylK/ejpa.Gh9Qk/Ip.AgS7rpyTj5!"));
	cr_assert_not(web_config__is_bcrypt("$apr1$ZQ1RaP0G$Lz1jRkJ0m3fQZbCjLbh6y/"), "htpasswd -m's MD5");
	cr_assert_not(web_config__is_bcrypt("secret"));
}

/* arrays, not pointers: a parameter reaches the test's own process copied */
struct bad_file {
	char text[256];
	char says[160];	/* what the one line holds */
};

static struct bad_file bad_files[] = {
	{ "", "no tls_server_config and no basic_auth_users" },
	{ "# nothing yet\n\n", "no tls_server_config and no basic_auth_users" },
	{ "tls_config:\n", "line 1: unknown key 'tls_config' (tls_server_config and basic_auth_users are taken)" },
	{ "basic_auth_users:\n  alice: " HASH "\nuser: x\n", "line 3: unknown key 'user'" },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n",
	  "line 4: tls_server_config: client_ca_file is not supported by wakeprobe: remove it" },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_auth_type: "
	  "RequireAndVerifyClientCert\n",
	  "line 4: tls_server_config: client_auth_type RequireAndVerifyClientCert is not supported by wakeprobe" },
	{ "tls_server_config:\n  cipher_suites:\n    - TLS_AES_128_GCM_SHA256\n",
	  "line 2: tls_server_config: cipher_suites is not supported" },
	{ "tls_server_config:\n  cert: |\n", "line 2: tls_server_config: cert is not supported by wakeprobe: remove it "
					      "and give the PEM in a file" },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  session_tickets: false\n",
	  "line 4: tls_server_config: unknown key 'session_tickets'" },
	{ "http_server_config:\n  http2: false\n", "line 1: http_server_config is not supported by wakeprobe" },
	{ "basic_auth_users:\n  alice: " HASH "\nrate_limit:\n  burst: 20\n", "line 3: rate_limit is not supported" },
	{ "basic_auth_users:\n\talice: " HASH "\n", "line 2: a tab in the indentation: YAML indents with spaces" },
	{ "basic_auth_users:\n  alice: " HASH "\n   bob: " HASH "\n", "line 3: indented by 3 spaces, where the key "
								   "before was by 2" },
	{ "  alice: " HASH "\n", "line 1: indented, under no key" },
	{ "basic_auth_users:\n  alice: secret\n", "line 2: basic_auth_users: alice: not a bcrypt hash ($2y$, $2b$ or "
						  "$2a$, 60 characters): make one with htpasswd -nbBC 10" },
	{ "basic_auth_users:\n  alice: $apr1$ZQ1RaP0G$Lz1jRkJ0m3fQZbCjLbh6y/\n", "line 2: basic_auth_users: alice: "
										 "not a bcrypt hash" },
	{ "basic_auth_users:\n  alice:\n", "line 2: basic_auth_users: alice: not a bcrypt hash" },
	{ "basic_auth_users:\n  alice: " HASH "\n  alice: " HASH "\n", "line 3: basic_auth_users: alice given twice" },
	{ "basic_auth_users:\n  \"a:b\": " HASH "\n", "line 2: basic_auth_users: a:b: a user name cannot hold ':'" },
	{ "basic_auth_users:\n  a: " HASH "\nbasic_auth_users:\n", "line 3: basic_auth_users given twice" },
	{ "basic_auth_users:\n", "basic_auth_users names no user" },
	{ "tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n", "line 2: cert_file " },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  key_file: server.key\n",
	  "line 4: tls_server_config: key_file given twice" },
	{ "tls_server_config:\n  cert_file: server.crt\n", "tls_server_config wants cert_file and key_file both" },
	{ "tls_server_config:\n", "tls_server_config wants cert_file and key_file both" },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS11\n",
	  "line 4: min_version TLS11: TLS 1.2 is the oldest served" },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: 1.3\n",
	  "line 4: min_version wants TLS12 or TLS13, not '1.3'" },
	{ "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  min_version: TLS13\n"
	  "  max_version: TLS12\n", "tls_server_config: max_version is older than min_version" },
	{ "tls_server_config: yes\n", "line 1: tls_server_config wants its keys on the lines below it" },
	{ "basic_auth_users: {alice: x}\n", "line 1: '{' starts YAML this reader does not take" },
	{ "basic_auth_users:\n  alice: &a " HASH "\n", "line 2: '&' starts YAML" },
	{ "basic_auth_users:\n  alice: \"" HASH "\n", "line 2: a double-quoted value is not closed on its line" },
	{ "basic_auth_users:\n  alice: '" HASH "' x\n", "line 2: text after a quoted value" },
	{ "basic_auth_users\n", "line 1: 'basic_auth_users' is not 'key: value'" },
	{ "---\nbasic_auth_users:\n", "line 1: a YAML document marker" },
	{ "basic_auth_users:\n  - alice\n", "line 2: a list item" },
};

ParameterizedTestParameters(web_config, a_bad_file_gets_one_line_naming_its_line_and_the_fix)
{
	return cr_make_param_array(struct bad_file, bad_files, sizeof(bad_files) / sizeof(bad_files[0]));
}

ParameterizedTest(struct bad_file *b, web_config, a_bad_file_gets_one_line_naming_its_line_and_the_fix)
{
	cr_assert_eq(parse(b->text), -EINVAL, "taken: %s", b->text);
	cr_assert(strstr(msg, b->says), "'%s' does not say '%s'", msg, b->says);
	cr_assert(!strncmp(msg, "--web-config web.yml: ", 22), "names the file: %s", msg);
	cr_assert_null(strchr(msg, '\n'), "one line: %s", msg);
}

Test(web_config, a_cert_file_that_is_missing_is_named_with_its_path)
{
	cr_assert_eq(parse("tls_server_config:\n  cert_file: missing.crt\n  key_file: server.key\n"), -EINVAL);
	cr_assert(strstr(msg, "line 2: cert_file ") && strstr(msg, "/missing.crt: no such file"), "%s", msg);
}
