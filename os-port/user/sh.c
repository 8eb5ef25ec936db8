/* SPDX-License-Identifier: MIT */
/* The shell: commands, redirection (< > >>), pipes (|), lists (;),
 * conditionals on the exit status (a && b, a || b), background jobs (&)
 * and grouping with parentheses.  `sh` reads the
 * console and prompts; `sh FILE` runs the commands in FILE without a
 * prompt, as other shells do, so a script in the background does not
 * write prompts into the console's output. */
#include "kernel/types.h"
#include "kernel/fcntl.h"
#include "user/user.h"

#define MAXARGS   16
#define SH_APPEND 0x8000 /* shell-private flag, not passed to open() */

enum { EXEC = 1, REDIR, PIPE, LIST, BACK, AND, OR };

struct cmd {
  int type;
};
struct execcmd {
  int type;
  char *argv[MAXARGS + 1];
  char *eargv[MAXARGS + 1]; /* end of each word: NUL-terminated later */
};
struct redircmd {
  int type;
  struct cmd *cmd;
  char *file, *efile;
  int mode;
  int fd;
};
struct pipecmd {
  int type;
  struct cmd *left, *right;
};
struct listcmd { /* LIST, AND, OR */
  int type;
  struct cmd *left, *right;
};
struct backcmd {
  int type;
  struct cmd *cmd;
};

static void panic(char *s) __attribute__((noreturn));
static void panic(char *s)
{
  fprintf(2, "%s\n", s);
  exit(1);
}

static int fork1(void)
{
  int pid = fork();
  if (pid == -1)
    panic("fork");
  return pid;
}

static void *zalloc(uint n)
{
  void *p = malloc(n);
  if (p == 0)
    panic("sh: out of memory");
  memset(p, 0, n);
  return p;
}

/* run a parsed command; never returns */
static void runcmd(struct cmd *cmd) __attribute__((noreturn));
static void runcmd(struct cmd *cmd)
{
  int p[2];
  if (cmd == 0)
    exit(1);
  switch (cmd->type) {
  case EXEC: {
    struct execcmd *e = (struct execcmd *)cmd;
    if (e->argv[0] == 0)
      exit(1);
    exec(e->argv[0], e->argv);
    fprintf(2, "exec %s failed\n", e->argv[0]);
    exit(1);
  }
  case REDIR: {
    struct redircmd *r = (struct redircmd *)cmd;
    close(r->fd);
    int fd = open(r->file, r->mode & ~SH_APPEND);
    if (fd < 0) {
      fprintf(2, "open %s failed\n", r->file);
      exit(1);
    }
    if (r->mode & SH_APPEND) {
      char skip[64];
      while (read(fd, skip, sizeof(skip)) > 0)
        ;
    }
    runcmd(r->cmd);
  }
  case LIST:
  case AND:
  case OR: {
    /* the left side's exit status decides whether the right side runs;
     * a list's status is its last command's, as in other shells */
    struct listcmd *l = (struct listcmd *)cmd;
    int st = 0;
    if (fork1() == 0)
      runcmd(l->left);
    wait(&st);
    if ((cmd->type == AND && st != 0) || (cmd->type == OR && st == 0))
      exit(st);
    runcmd(l->right);
  }
  case PIPE: {
    struct pipecmd *pc = (struct pipecmd *)cmd;
    if (pipe(p) < 0)
      panic("pipe");
    if (fork1() == 0) {
      close(1);
      dup(p[1]);
      close(p[0]);
      close(p[1]);
      runcmd(pc->left);
    }
    int rpid = fork1();
    if (rpid == 0) {
      close(0);
      dup(p[0]);
      close(p[0]);
      close(p[1]);
      runcmd(pc->right);
    }
    close(p[0]);
    close(p[1]);
    int st = 0, pid, right_st = 0;
    for (int n = 0; n < 2 && (pid = wait(&st)) > 0; n++)
      if (pid == rpid)
        right_st = st;
    exit(right_st); /* a pipeline's status is its last command's */
  }
  case BACK: {
    struct backcmd *b = (struct backcmd *)cmd;
    if (fork1() == 0)
      runcmd(b->cmd);
    break;
  }
  default:
    panic("runcmd");
  }
  exit(0);
}

static int getcmd(char *buf, int nbuf, int prompt)
{
  if (prompt)
    write(2, "$ ", 2);
  memset(buf, 0, nbuf);
  gets(buf, nbuf);
  if (buf[0] == 0) /* EOF */
    return -1;
  return 0;
}

/* ---- parser ---- */
static const char whitespace[] = " \t\r\n\v";
static const char symbols[] = "<|>&;()";

/* return the next token type: 0 at end, 'a' for a word, '+' for >>, 'A'
 * for &&, 'O' for ||, or the symbol itself; q/eq delimit a word */
static int gettoken(char **ps, char *es, char **q, char **eq)
{
  char *s = *ps;
  while (s < es && strchr(whitespace, *s))
    s++;
  if (q)
    *q = s;
  int ret = *s;
  switch (*s) {
  case 0:
    break;
  case '|':
  case '&':
    s++;
    if (*s == ret) { /* || or && */
      ret = ret == '|' ? 'O' : 'A';
      s++;
    }
    break;
  case '(':
  case ')':
  case ';':
  case '<':
    s++;
    break;
  case '>':
    s++;
    if (*s == '>') {
      ret = '+';
      s++;
    }
    break;
  default:
    ret = 'a';
    while (s < es && !strchr(whitespace, *s) && !strchr(symbols, *s))
      s++;
    break;
  }
  if (eq)
    *eq = s;
  while (s < es && strchr(whitespace, *s))
    s++;
  *ps = s;
  return ret;
}

/* skip white space; is the next character one of toks? */
static int peek(char **ps, char *es, const char *toks)
{
  char *s = *ps;
  while (s < es && strchr(whitespace, *s))
    s++;
  *ps = s;
  return *s && strchr(toks, *s);
}

/* is the next token the two-character operator op (&& or ||)? */
static int peek2(char **ps, char *es, const char *op)
{
  return peek(ps, es, op) && *ps + 1 < es && (*ps)[1] == op[1];
}

static struct cmd *parseline(char **, char *);
static struct cmd *parsepipe(char **, char *);
static struct cmd *parseexec(char **, char *);

static struct cmd *mkredir(struct cmd *sub, char *file, char *efile, int mode, int fd)
{
  struct redircmd *c = zalloc(sizeof(*c));
  c->type = REDIR;
  c->cmd = sub;
  c->file = file;
  c->efile = efile;
  c->mode = mode;
  c->fd = fd;
  return (struct cmd *)c;
}

static struct cmd *parseredirs(struct cmd *cmd, char **ps, char *es)
{
  char *q, *eq;
  while (peek(ps, es, "<>")) {
    int tok = gettoken(ps, es, 0, 0);
    if (gettoken(ps, es, &q, &eq) != 'a')
      panic("missing file for redirection");
    if (tok == '<')
      cmd = mkredir(cmd, q, eq, O_RDONLY, 0);
    else if (tok == '>')
      cmd = mkredir(cmd, q, eq, O_WRONLY | O_CREATE | O_TRUNC, 1);
    else /* >> : xv6 has no O_APPEND; runcmd reads to the end instead */
      cmd = mkredir(cmd, q, eq, SH_APPEND | O_RDWR | O_CREATE, 1);
  }
  return cmd;
}

static struct cmd *parseblock(char **ps, char *es)
{
  if (!peek(ps, es, "("))
    panic("parseblock");
  gettoken(ps, es, 0, 0);
  struct cmd *cmd = parseline(ps, es);
  if (!peek(ps, es, ")"))
    panic("syntax - missing )");
  gettoken(ps, es, 0, 0);
  return parseredirs(cmd, ps, es);
}

static struct cmd *parseexec(char **ps, char *es)
{
  char *q, *eq;
  if (peek(ps, es, "("))
    return parseblock(ps, es);
  struct execcmd *e = zalloc(sizeof(*e));
  e->type = EXEC;
  struct cmd *ret = parseredirs((struct cmd *)e, ps, es);
  int argc = 0;
  while (!peek(ps, es, "|)&;")) {
    int tok = gettoken(ps, es, &q, &eq);
    if (tok == 0)
      break;
    if (tok != 'a')
      panic("syntax");
    if (argc >= MAXARGS)
      panic("too many args");
    e->argv[argc] = q;
    e->eargv[argc] = eq;
    argc++;
    ret = parseredirs(ret, ps, es);
  }
  e->argv[argc] = 0;
  e->eargv[argc] = 0;
  return ret;
}

static struct cmd *parsepipe(char **ps, char *es)
{
  struct cmd *cmd = parseexec(ps, es);
  if (peek(ps, es, "|") && !peek2(ps, es, "||")) {
    gettoken(ps, es, 0, 0);
    struct pipecmd *p = zalloc(sizeof(*p));
    p->type = PIPE;
    p->left = cmd;
    p->right = parsepipe(ps, es);
    cmd = (struct cmd *)p;
  }
  return cmd;
}

/* pipelines joined by && and ||, left to right with equal precedence */
static struct cmd *parseandor(char **ps, char *es)
{
  struct cmd *cmd = parsepipe(ps, es);
  while (peek2(ps, es, "&&") || peek2(ps, es, "||")) {
    struct listcmd *l = zalloc(sizeof(*l));
    l->type = gettoken(ps, es, 0, 0) == 'A' ? AND : OR;
    l->left = cmd;
    l->right = parsepipe(ps, es);
    cmd = (struct cmd *)l;
  }
  return cmd;
}

static struct cmd *parseline(char **ps, char *es)
{
  struct cmd *cmd = parseandor(ps, es);
  while (peek(ps, es, "&") && !peek2(ps, es, "&&")) {
    gettoken(ps, es, 0, 0);
    struct backcmd *b = zalloc(sizeof(*b));
    b->type = BACK;
    b->cmd = cmd;
    cmd = (struct cmd *)b;
  }
  if (peek(ps, es, ";")) {
    gettoken(ps, es, 0, 0);
    struct listcmd *l = zalloc(sizeof(*l));
    l->type = LIST;
    l->left = cmd;
    l->right = parseline(ps, es);
    cmd = (struct cmd *)l;
  }
  return cmd;
}

/* NUL-terminate all the words in place */
static struct cmd *nulterminate(struct cmd *cmd)
{
  if (cmd == 0)
    return 0;
  switch (cmd->type) {
  case EXEC: {
    struct execcmd *e = (struct execcmd *)cmd;
    for (int i = 0; e->argv[i]; i++)
      *e->eargv[i] = 0;
    break;
  }
  case REDIR: {
    struct redircmd *r = (struct redircmd *)cmd;
    nulterminate(r->cmd);
    *r->efile = 0;
    break;
  }
  case PIPE:
    nulterminate(((struct pipecmd *)cmd)->left);
    nulterminate(((struct pipecmd *)cmd)->right);
    break;
  case LIST:
  case AND:
  case OR:
    nulterminate(((struct listcmd *)cmd)->left);
    nulterminate(((struct listcmd *)cmd)->right);
    break;
  case BACK:
    nulterminate(((struct backcmd *)cmd)->cmd);
    break;
  }
  return cmd;
}

static struct cmd *parsecmd(char *s)
{
  char *es = s + strlen(s);
  struct cmd *cmd = parseline(&s, es);
  peek(&s, es, "");
  if (s != es) {
    fprintf(2, "leftovers: %s\n", s);
    panic("syntax");
  }
  return nulterminate(cmd);
}

int main(int argc, char *argv[])
{
  static char buf[256]; /* the console's line: room for a SHA-512 MAC in hex and a command */
  int fd;
  /* make sure fds 0, 1, 2 are open */
  while ((fd = open("console", O_RDWR)) >= 0) {
    if (fd >= 3) {
      close(fd);
      break;
    }
  }
  if (argc > 1) { /* a script: it becomes standard input */
    if ((fd = open(argv[1], O_RDONLY)) < 0) {
      fprintf(2, "sh: cannot open %s\n", argv[1]);
      exit(1);
    }
    close(0);
    dup(fd);
    close(fd);
  }
  while (getcmd(buf, sizeof(buf), argc <= 1) >= 0) {
    char *s = buf;
    while (*s == ' ' || *s == '\t')
      s++;
    if (s[0] == 'c' && s[1] == 'd' && (s[2] == ' ' || s[2] == '\n' || s[2] == 0)) {
      /* cd must run in the shell itself */
      char *d = s + 2;
      while (*d == ' ')
        d++;
      int n = strlen(d);
      while (n > 0 && (d[n - 1] == '\n' || d[n - 1] == ' ' || d[n - 1] == '\t'))
        d[--n] = 0;
      if (chdir(d) < 0)
        fprintf(2, "cannot cd %s\n", d);
      continue;
    }
    if (fork1() == 0)
      runcmd(parsecmd(buf));
    wait(0);
  }
  exit(0);
}
