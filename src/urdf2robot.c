/* urdf2robot -- read a URDF (or a model JSON) and write the model JSON, SPART's robot structure */
#include "cli.h"

static const char about[] =
    "Read a URDF robot description (or a model JSON, or a DH description: dh2robot(1)) and\n"
    "write the model JSON of the SPART toolkit (spart-model(5)): links and joints numbered\n"
    "depth-first from the base link.\n"
    "Without FILE, or with -, read standard input.\n";


int main(int argc, char **argv) {
  cli_convert o;
  spart_err err = {0};
  int status = cli_convert_parse(&o, "urdf2robot", about, argc, argv);
  if (status >= 0) {
    return status;
  }
  spart_model *m = cli_convert_load(&o, &err);
  if (!m) {
    return cli_convert_fail(&o, &err);
  }
  char *text = o.summary ? spart_model_summary(m) : o.dot ? spart_model_dot(m) : spart_model_json(m);
  spart_model_free(m);
  return cli_convert_write(&o, text);
}
