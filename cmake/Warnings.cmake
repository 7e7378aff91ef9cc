# Strict warnings for nnfab's own code only; third-party headers come in as
# SYSTEM includes (imported targets), so they never trip -Werror.
function(nnfab_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()
