server {
  host = "h"
}
